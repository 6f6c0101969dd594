import type { Kysely } from 'kysely';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { EmailStatus, OutboundEmail } from '../../domain/notifications/email.ts';
import type { EmailRepository } from '../../domain/repositories/email.repository.ts';
import type { Page, PageRequest } from '../../domain/shared/page.ts';
import type { Database, OutboundEmailsTable } from '../schema.ts';
import { leaseDue, unleased } from './leases.ts';
import { newestFirstPage } from './page.ts';

function toEmail(r: OutboundEmailsTable): OutboundEmail {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    mode: r.mode as Mode,
    to: r.to_address,
    subject: r.subject,
    text: r.text_body,
    status: r.status as EmailStatus,
    attempts: Number(r.attempts),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    sentAt: r.sent_at === null ? null : Number(r.sent_at),
  };
}

export class KyselyEmailRepository implements EmailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(e: OutboundEmail): Promise<void> {
    await this.db
      .insertInto('outbound_emails')
      .values({
        id: e.id,
        merchant_id: e.merchantId,
        mode: e.mode,
        to_address: e.to,
        subject: e.subject,
        text_body: e.text,
        status: e.status,
        attempts: BigInt(e.attempts),
        last_error: e.lastError,
        created_at: BigInt(e.createdAt),
        sent_at: e.sentAt === null ? null : BigInt(e.sentAt),
      })
      .execute();
  }

  async claimPending(now: number, limit: number, leaseMs: number): Promise<OutboundEmail[]> {
    const due = this.db
      .selectFrom('outbound_emails')
      .select('id')
      .where('status', '=', 'PENDING')
      .where(unleased(now))
      .orderBy('created_at')
      .limit(limit);
    const rows = await leaseDue(this.db, 'outbound_emails', due, now, leaseMs);
    return rows.map(toEmail);
  }

  async mark(id: string, status: EmailStatus, attempts: number, error: string | null, at: number): Promise<void> {
    await this.db
      .updateTable('outbound_emails')
      .set({
        status,
        attempts: BigInt(attempts),
        last_error: error,
        locked_until: null,
        ...(status === 'SENT' ? { sent_at: BigInt(at) } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  async listForMerchant(merchantId: string, mode: Mode, limit: number): Promise<OutboundEmail[]> {
    const rows = await this.db
      .selectFrom('outbound_emails')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toEmail);
  }

  async page(merchantId: string, mode: Mode, page: PageRequest): Promise<Page<OutboundEmail>> {
    const q = this.db
      .selectFrom('outbound_emails')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode);
    return newestFirstPage(q, page.cursor, page.limit, toEmail);
  }
}
