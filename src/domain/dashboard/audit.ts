import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import { newId } from '../shared/ids.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { AuditEntry } from './dashboard-user.ts';

/** What an audit entry says beyond who and when. */
export type AuditInput = Pick<AuditEntry, 'merchantId' | 'action' | 'objectType' | 'objectId'> & {
  detail?: AuditEntry['detail'];
};

/** Who did something: a signed-in user (with the address they came from) or the command line. */
export type Actor = { userId: string | null; label: string; ip: string | null };

export const CLI_ACTOR: Actor = { userId: null, label: 'cli', ip: null };

/** Writes one audit entry in the caller's transaction, beside the change it records. */
export async function audit(repos: Repositories, actor: Actor, entry: AuditInput, at: number): Promise<void> {
  await repos.audit.insertAudit({
    id: newId(),
    merchantId: entry.merchantId,
    userId: actor.userId,
    actor: actor.label,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId,
    ip: actor.ip,
    detail: entry.detail ?? {},
    at,
  });
}

/**
 * The audit log as the dashboard uses it. Changes made by a domain service in its own
 * transaction (a refund, a revoked key) are recorded right after they commit; the team's
 * own changes are recorded inside their transaction (team.service.ts).
 */
export class AuditLogService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async record(actor: Actor, entry: AuditInput): Promise<void> {
    const at = this.clock.now().getTime();
    await this.uow.transaction((repos) => audit(repos, actor, entry, at));
  }

  /** Newest first, 50 at a time; `before` is the last entry of the previous page. */
  async list(merchantId: string, before: { at: number; id: string } | null): Promise<AuditEntry[]> {
    return this.uow.read.audit.audit(merchantId, 50, before);
  }
}
