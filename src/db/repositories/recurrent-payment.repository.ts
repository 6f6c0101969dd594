import type { Kysely } from 'kysely';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { PaymentMethodType } from '../../domain/payment-methods/payment-method.ts';
import type { RecurrentPaymentRepository } from '../../domain/repositories/recurrent-payment.repository.ts';
import { isLocale } from '../../domain/shared/language.ts';
import type { Page, PageRequest } from '../../domain/shared/page.ts';
import type { IntervalType } from '../../domain/subscriptions/payment-link.ts';
import type { RecurrentPaymentStatus } from '../../domain/subscriptions/recurrent-payment.status.ts';
import type {
  RecurrentPayment,
  RecurrentPaymentChanges,
  RecurrentPaymentFilter,
} from '../../domain/subscriptions/recurrent-payment.ts';
import type { Database, RecurrentPaymentsTable } from '../schema.ts';
import { newestFirstPage } from './page.ts';
import { PreparedQuery } from './prepared.ts';

// Read several times per renewal (see prepared.ts).
const BY_ID = new PreparedQuery<{ id: string }, RecurrentPaymentsTable>((db, $) =>
  db.selectFrom('recurrent_payments').selectAll().where('id', '=', $('id')),
);

const num = (v: bigint | null): number | null => (v === null ? null : Number(v));
const big = (v: number | null): bigint | null => (v === null ? null : BigInt(v));

function toRecurrent(r: RecurrentPaymentsTable): RecurrentPayment {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    mode: r.mode as Mode,
    paymentLinkId: r.payment_link_id,
    planVersion: Number(r.plan_version),
    checkoutPreferenceId: r.checkout_preference_id,
    status: r.status as RecurrentPaymentStatus,
    title: r.title,
    amountMinor: BigInt(r.amount_minor),
    grossAmountMinor: BigInt(r.gross_amount_minor),
    currency: r.currency,
    intervalType: r.interval_type as IntervalType,
    intervalCount: num(r.interval_count),
    trialIntervalType: r.trial_interval_type as IntervalType | null,
    trialIntervalCount: Number(r.trial_interval_count),
    signupFeeMinor: BigInt(r.signup_fee_minor),
    paymentMethodId: r.payment_method_id,
    paymentMethodType: r.payment_method_type as PaymentMethodType,
    cardToken: r.card_token,
    cardBrand: r.card_brand,
    cardLast4: r.card_last4,
    payer: {
      email: r.payer_email,
      firstName: r.payer_first_name,
      lastName: r.payer_last_name,
      phoneNumber: r.payer_phone_number,
    },
    language: isLocale(r.payer_language) ? r.payer_language : 'en',
    externalId: r.external_id,
    anchorAt: num(r.anchor_at),
    currentPeriodStart: num(r.current_period_start),
    currentPeriodEnd: num(r.current_period_end),
    nextPaymentDate: num(r.next_payment_date),
    periodsPaid: Number(r.periods_paid),
    failedAttempts: Number(r.failed_attempts),
    sequence: Number(r.sequence),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    canceledAt: num(r.canceled_at),
    deletedBy: r.deleted_by,
  };
}

function changesToRow(c: RecurrentPaymentChanges): Partial<RecurrentPaymentsTable> {
  const row: Partial<RecurrentPaymentsTable> = {};
  if (c.cardToken !== undefined) {
    row.card_token = c.cardToken;
  }
  if (c.cardBrand !== undefined) {
    row.card_brand = c.cardBrand;
  }
  if (c.cardLast4 !== undefined) {
    row.card_last4 = c.cardLast4;
  }
  if (c.anchorAt !== undefined) {
    row.anchor_at = big(c.anchorAt);
  }
  if (c.currentPeriodStart !== undefined) {
    row.current_period_start = big(c.currentPeriodStart);
  }
  if (c.currentPeriodEnd !== undefined) {
    row.current_period_end = big(c.currentPeriodEnd);
  }
  if (c.nextPaymentDate !== undefined) {
    row.next_payment_date = big(c.nextPaymentDate);
  }
  if (c.periodsPaid !== undefined) {
    row.periods_paid = BigInt(c.periodsPaid);
  }
  if (c.failedAttempts !== undefined) {
    row.failed_attempts = BigInt(c.failedAttempts);
  }
  if (c.canceledAt !== undefined) {
    row.canceled_at = big(c.canceledAt);
  }
  if (c.deletedBy !== undefined) {
    row.deleted_by = c.deletedBy;
  }
  if (c.paymentMethodId !== undefined) {
    row.payment_method_id = c.paymentMethodId;
  }
  if (c.paymentMethodType !== undefined) {
    row.payment_method_type = c.paymentMethodType;
  }
  if (c.payer !== undefined) {
    row.payer_email = c.payer.email;
    row.payer_first_name = c.payer.firstName;
    row.payer_last_name = c.payer.lastName;
    row.payer_phone_number = c.payer.phoneNumber;
  }
  if (c.language !== undefined) {
    row.payer_language = c.language;
  }
  return row;
}

export class KyselyRecurrentPaymentRepository implements RecurrentPaymentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(r: RecurrentPayment): Promise<void> {
    await this.db
      .insertInto('recurrent_payments')
      .values({
        id: r.id,
        merchant_id: r.merchantId,
        mode: r.mode,
        payment_link_id: r.paymentLinkId,
        plan_version: BigInt(r.planVersion),
        checkout_preference_id: r.checkoutPreferenceId,
        status: r.status,
        title: r.title,
        amount_minor: r.amountMinor,
        gross_amount_minor: r.grossAmountMinor,
        currency: r.currency,
        interval_type: r.intervalType,
        interval_count: big(r.intervalCount),
        trial_interval_type: r.trialIntervalType,
        trial_interval_count: BigInt(r.trialIntervalCount),
        signup_fee_minor: r.signupFeeMinor,
        payment_method_id: r.paymentMethodId,
        payment_method_type: r.paymentMethodType,
        card_token: r.cardToken,
        card_brand: r.cardBrand,
        card_last4: r.cardLast4,
        payer_email: r.payer.email,
        payer_first_name: r.payer.firstName,
        payer_last_name: r.payer.lastName,
        payer_phone_number: r.payer.phoneNumber,
        payer_language: r.language,
        external_id: r.externalId,
        anchor_at: big(r.anchorAt),
        current_period_start: big(r.currentPeriodStart),
        current_period_end: big(r.currentPeriodEnd),
        next_payment_date: big(r.nextPaymentDate),
        periods_paid: BigInt(r.periodsPaid),
        failed_attempts: BigInt(r.failedAttempts),
        sequence: BigInt(r.sequence),
        created_at: BigInt(r.createdAt),
        updated_at: BigInt(r.updatedAt),
        canceled_at: big(r.canceledAt),
        deleted_by: r.deletedBy,
      })
      .execute();
  }

  async get(merchantId: string, mode: Mode, id: string): Promise<RecurrentPayment | undefined> {
    // By primary key alone, owner checked here: with the owner in the WHERE clause PostgreSQL may
    // pick a composite index on stale statistics and scan all of a merchant's rows.
    const row = await this.db.selectFrom('recurrent_payments').selectAll().where('id', '=', id).executeTakeFirst();
    return row && row.merchant_id === merchantId && row.mode === mode ? toRecurrent(row) : undefined;
  }

  async getById(id: string): Promise<RecurrentPayment | undefined> {
    const row = await BY_ID.first(this.db, { id });
    return row ? toRecurrent(row) : undefined;
  }

  async getByPreference(preferenceId: string): Promise<RecurrentPayment | undefined> {
    const row = await this.db
      .selectFrom('recurrent_payments')
      .selectAll()
      .where('checkout_preference_id', '=', preferenceId)
      .executeTakeFirst();
    return row ? toRecurrent(row) : undefined;
  }

  async list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    f: RecurrentPaymentFilter,
  ): Promise<Page<RecurrentPayment>> {
    let q = this.db
      .selectFrom('recurrent_payments')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode);
    if (f.status) {
      q = q.where('status', '=', f.status);
    }
    if (f.externalId !== undefined) {
      q = q.where('external_id', '=', f.externalId);
    }
    if (f.paymentLinkId !== undefined) {
      q = q.where('payment_link_id', '=', f.paymentLinkId);
    }
    return newestFirstPage(q, page.cursor, page.limit, toRecurrent);
  }

  async update(
    current: Pick<RecurrentPayment, 'id' | 'status' | 'sequence'>,
    to: RecurrentPaymentStatus,
    changes: RecurrentPaymentChanges,
    at: number,
  ): Promise<RecurrentPayment | undefined> {
    // RETURNING: the changed record comes back from the update itself, not from a second read.
    const row = await this.db
      .updateTable('recurrent_payments')
      .set({ ...changesToRow(changes), status: to, sequence: BigInt(current.sequence + 1), updated_at: BigInt(at) })
      .where('id', '=', current.id)
      .where('status', '=', current.status)
      .where('sequence', '=', BigInt(current.sequence))
      .returningAll()
      .executeTakeFirst();
    return row ? toRecurrent(row) : undefined;
  }

  async listDue(
    statuses: readonly RecurrentPaymentStatus[],
    before: number,
    limit: number,
  ): Promise<RecurrentPayment[]> {
    const rows = await this.db
      .selectFrom('recurrent_payments')
      .selectAll()
      .where('status', 'in', [...statuses])
      .where('next_payment_date', '<=', BigInt(before))
      .orderBy('next_payment_date')
      .limit(limit)
      .execute();
    return rows.map(toRecurrent);
  }

  async listByStatus(statuses: readonly RecurrentPaymentStatus[], limit: number): Promise<RecurrentPayment[]> {
    const rows = await this.db
      .selectFrom('recurrent_payments')
      .selectAll()
      .where('status', 'in', [...statuses])
      .limit(limit)
      .execute();
    return rows.map(toRecurrent);
  }
}
