import type { Kysely } from 'kysely';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { Page, PageRequest } from '../../domain/shared/page.ts';
import { toPage } from '../../domain/shared/page.ts';
import type {
  IntervalType,
  PaymentLink,
  PaymentLinkRepository,
  PaymentLinkStatus,
} from '../../domain/subscriptions/payment-link.ts';
import type { Database, PaymentLinksTable } from '../schema.ts';
import { afterCursor } from './page.ts';

function toPaymentLink(row: PaymentLinksTable): PaymentLink {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    title: row.title,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    intervalType: row.interval_type as IntervalType,
    intervalCount: row.interval_count === null ? null : Number(row.interval_count),
    trialIntervalType: row.trial_interval_type as IntervalType | null,
    trialIntervalCount: Number(row.trial_interval_count),
    signupFeeMinor: BigInt(row.signup_fee_minor),
    externalId: row.external_id,
    status: row.status as PaymentLinkStatus,
    version: Number(row.version),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export class KyselyPaymentLinkRepository implements PaymentLinkRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(link: PaymentLink): Promise<void> {
    await this.db
      .insertInto('payment_links')
      .values({
        id: link.id,
        merchant_id: link.merchantId,
        mode: link.mode,
        title: link.title,
        amount_minor: link.amountMinor,
        currency: link.currency,
        interval_type: link.intervalType,
        interval_count: link.intervalCount === null ? null : BigInt(link.intervalCount),
        trial_interval_type: link.trialIntervalType,
        trial_interval_count: BigInt(link.trialIntervalCount),
        signup_fee_minor: link.signupFeeMinor,
        external_id: link.externalId,
        status: link.status,
        version: BigInt(link.version),
        created_at: BigInt(link.createdAt),
        updated_at: BigInt(link.updatedAt),
      })
      .execute();
  }

  async get(merchantId: string, mode: Mode, id: string): Promise<PaymentLink | undefined> {
    const row = await this.db
      .selectFrom('payment_links')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .executeTakeFirst();
    return row ? toPaymentLink(row) : undefined;
  }

  async list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: { status?: PaymentLinkStatus },
  ): Promise<Page<PaymentLink>> {
    let q = this.db
      .selectFrom('payment_links')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode);
    if (filter.status) {
      q = q.where('status', '=', filter.status);
    }
    if (page.cursor) {
      q = q.where(afterCursor<Database, 'payment_links'>(page.cursor));
    }
    const rows = await q
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
    return toPage(rows.map(toPaymentLink), page.limit);
  }

  async setStatus(merchantId: string, mode: Mode, id: string, status: PaymentLinkStatus, at: number): Promise<void> {
    await this.db
      .updateTable('payment_links')
      .set({ status, updated_at: BigInt(at) })
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .execute();
  }
}
