import type { Mode } from '../merchants/merchant.ts';

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

/** The way out: SMTP in production; absent, mails are kept for the test-mode mailbox page. */
export interface MailTransport {
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
}
