import type { Mode } from '../merchants/merchant.ts';
import type { Page, PageRequest } from '../shared/page.ts';

export type EmailStatus = 'PENDING' | 'SENT' | 'KEPT' | 'FAILED';

/** A mail to a payer. Written in the transaction of what it announces, sent afterwards by a job. */
export type OutboundEmail = {
  id: string;
  merchantId: string;
  mode: Mode;
  to: string;
  subject: string;
  text: string;
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
};

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

/** The way out: SMTP in production; absent, mails are kept for the test-mode mailbox page. */
export interface MailTransport {
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
}
