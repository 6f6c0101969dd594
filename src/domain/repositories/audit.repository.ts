import type { AuditEntry } from '../dashboard/dashboard-user.ts';

/** The merchant's audit log of dashboard actions. */
export interface AuditRepository {
  insertAudit(entry: AuditEntry): Promise<void>;
  /** Newest first; `before` is the `at:id` cursor of the last entry of the previous page. */
  audit(merchantId: string, limit: number, before: { at: number; id: string } | null): Promise<AuditEntry[]>;
}
