import type { Mode } from '../merchants/merchant.ts';
import type { EmailStatus, OutboundEmail } from '../notifications/email.ts';
import type { Page, PageRequest } from '../shared/page.ts';

export interface EmailRepository {
  insert(email: OutboundEmail): Promise<void>;
  /**
   * Leases up to `limit` pending mails to the caller for `leaseMs`: each is leased to one worker
   * at a time, and one whose lease lapsed (its worker died) is leased again.
   */
  claimPending(now: number, limit: number, leaseMs: number): Promise<OutboundEmail[]>;
  /** Records a send's outcome and ends the mail's lease. */
  mark(id: string, status: EmailStatus, attempts: number, error: string | null, at: number): Promise<void>;
  listForMerchant(merchantId: string, mode: Mode, limit: number): Promise<OutboundEmail[]>;
  /** The merchant's mails, newest first, a page at a time (the test-mode mailbox). */
  page(merchantId: string, mode: Mode, page: PageRequest): Promise<Page<OutboundEmail>>;
}
