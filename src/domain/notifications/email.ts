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
  listPending(limit: number): Promise<OutboundEmail[]>;
  mark(id: string, status: EmailStatus, attempts: number, error: string | null, at: number): Promise<void>;
  listForMerchant(merchantId: string, mode: Mode, limit: number): Promise<OutboundEmail[]>;
  /** The merchant's mails, newest first, a page at a time (the test-mode mailbox). */
  page(merchantId: string, mode: Mode, page: PageRequest): Promise<Page<OutboundEmail>>;
}

/** The way out: SMTP in production; absent, mails are kept for the test-mode mailbox page. */
export interface MailTransport {
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
}
