import type { Kysely } from 'kysely';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { PaymentLinkRepository } from '../../domain/repositories/payment-link.repository.ts';
import type { Page, PageRequest } from '../../domain/shared/page.ts';
import type {
  IntervalType,
  PaymentLink,
  PaymentLinkStatus,
  PaymentLinkVersion,
  PlanTerms,
} from '../../domain/subscriptions/payment-link.ts';
import type { Database, PaymentLinksTable, PaymentLinkVersionsTable } from '../schema.ts';
import { newestFirstPage } from './page.ts';

/** The plan terms, stored the same way on a link and on each of its versions. */
function termsOf(row: PaymentLinksTable | PaymentLinkVersionsTable): PlanTerms {
  return {
    title: row.title,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    intervalType: row.interval_type as IntervalType,
    intervalCount: row.interval_count === null ? null : Number(row.interval_count),
    trialIntervalType: row.trial_interval_type as IntervalType | null,
    trialIntervalCount: Number(row.trial_interval_count),
    signupFeeMinor: BigInt(row.signup_fee_minor),
  };
}

function toPaymentLink(row: PaymentLinksTable): PaymentLink {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    ...termsOf(row),
    externalId: row.external_id,
    status: row.status as PaymentLinkStatus,
    version: Number(row.version),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toVersion(row: PaymentLinkVersionsTable): PaymentLinkVersion {
  return {
    paymentLinkId: row.payment_link_id,
    version: Number(row.version),
    ...termsOf(row),
    createdAt: Number(row.created_at),
    supersededAt: Number(row.superseded_at),
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
    // By primary key alone, owner checked here: with the owner in the WHERE clause PostgreSQL may
    // pick a composite index on stale statistics and scan all of a merchant's rows.
    const row = await this.db.selectFrom('payment_links').selectAll().where('id', '=', id).executeTakeFirst();
    return row && row.merchant_id === merchantId && row.mode === mode ? toPaymentLink(row) : undefined;
  }

  async getById(id: string): Promise<PaymentLink | undefined> {
    const row = await this.db.selectFrom('payment_links').selectAll().where('id', '=', id).executeTakeFirst();
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
    return newestFirstPage(q, page.cursor, page.limit, toPaymentLink);
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

  async updateTerms(
    current: Pick<PaymentLink, 'id' | 'merchantId' | 'mode' | 'version'>,
    terms: PlanTerms,
    at: number,
  ): Promise<PaymentLink | undefined> {
    const result = await this.db
      .updateTable('payment_links')
      .set({
        title: terms.title,
        amount_minor: terms.amountMinor,
        currency: terms.currency,
        interval_type: terms.intervalType,
        interval_count: terms.intervalCount === null ? null : BigInt(terms.intervalCount),
        trial_interval_type: terms.trialIntervalType,
        trial_interval_count: BigInt(terms.trialIntervalCount),
        signup_fee_minor: terms.signupFeeMinor,
        version: BigInt(current.version + 1),
        updated_at: BigInt(at),
      })
      .where('id', '=', current.id)
      .where('merchant_id', '=', current.merchantId)
      .where('mode', '=', current.mode)
      .where('version', '=', BigInt(current.version))
      .where('status', '=', 'ACTIVE')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      return undefined;
    }
    return this.get(current.merchantId, current.mode, current.id);
  }

  async insertVersion(v: PaymentLinkVersion): Promise<void> {
    await this.db
      .insertInto('payment_link_versions')
      .values({
        payment_link_id: v.paymentLinkId,
        version: BigInt(v.version),
        title: v.title,
        amount_minor: v.amountMinor,
        currency: v.currency,
        interval_type: v.intervalType,
        interval_count: v.intervalCount === null ? null : BigInt(v.intervalCount),
        trial_interval_type: v.trialIntervalType,
        trial_interval_count: BigInt(v.trialIntervalCount),
        signup_fee_minor: v.signupFeeMinor,
        created_at: BigInt(v.createdAt),
        superseded_at: BigInt(v.supersededAt),
      })
      .execute();
  }

  async getVersion(paymentLinkId: string, version: number): Promise<PaymentLinkVersion | undefined> {
    const row = await this.db
      .selectFrom('payment_link_versions')
      .selectAll()
      .where('payment_link_id', '=', paymentLinkId)
      .where('version', '=', BigInt(version))
      .executeTakeFirst();
    return row ? toVersion(row) : undefined;
  }
}
