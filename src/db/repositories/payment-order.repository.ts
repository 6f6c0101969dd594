import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { PaymentMethodType } from '../../domain/payment-methods/payment-method.ts';
import type { PaymentAnomaly, PaymentOrderStatus } from '../../domain/payment-orders/payment-order.status.ts';
import type {
  ChainProgress,
  PaymentInstructions,
  PaymentOrder,
  PaymentOrderChanges,
  PaymentOrderFilter,
} from '../../domain/payment-orders/payment-order.ts';
import type { PaymentOrderRepository } from '../../domain/repositories/payment-order.repository.ts';
import type { Page, PageRequest } from '../../domain/shared/page.ts';
import type { Database, PaymentOrdersTable } from '../schema.ts';
import { newestFirstPage, startBelow } from './page.ts';
import { changedRows, PreparedInsert, PreparedQuery, PreparedShapes } from './prepared.ts';

// What each payment and renewal runs (see prepared.ts).
const INSERT = new PreparedInsert('payment_orders');
const BY_ID = new PreparedQuery<{ id: string }, PaymentOrdersTable>((db, $) =>
  db.selectFrom('payment_orders').selectAll().where('id', '=', $('id')),
);
const RENEWAL = new PreparedQuery<
  { recurrentPaymentId: string; periodIndex: bigint; attempt: bigint },
  PaymentOrdersTable
>((db, $) =>
  db
    .selectFrom('payment_orders')
    .selectAll()
    .where('recurrent_payment_id', '=', $('recurrentPaymentId'))
    .where('period_index', '=', $('periodIndex'))
    .where('period_attempt', '=', $('attempt')),
);

// Fixed values of `kind` and `payment_method_type` are written into the SQL as literals, not
// bound. SQLite compares a WHERE term with the constants of each partial index's WHERE
// (payment_orders_one_paid_per_preference: kind = 'CHECKOUT'; payment_orders_expired_crypto:
// payment_method_type = 'CRYPTO_ONCHAIN') to see whether the index applies, and when the term
// holds a parameter, that marks the plan as depending on its value: the statement is then
// compiled again on every run (docs/performance.md, "Measured choices in the code").

// Read inside every payment's transaction and usually empty: exactly the (checkout, status)
// index's range, with no ORDER BY, whose sorter would cost more than the lookup (callers sort
// the few rows there are).
const OPEN_FOR_PREFERENCE = new PreparedQuery<{ preferenceId: string }, PaymentOrdersTable>((db, $) =>
  db
    .selectFrom('payment_orders')
    .selectAll()
    .where('checkout_preference_id', '=', $('preferenceId'))
    .where('status', '=', sql.lit('OPENED'))
    .where('kind', '=', sql.lit('CHECKOUT')),
);
const REJECTED_CARD_ORDERS = new PreparedQuery<{ preferenceId: string }, { n: bigint | string | number }>((db, $) =>
  db
    .selectFrom('payment_orders')
    .select((eb) => eb.fn.countAll<bigint | string>().as('n'))
    .where('checkout_preference_id', '=', $('preferenceId'))
    .where('payment_method_type', '=', sql.lit('CARD'))
    .where('status', '=', sql.lit('REJECTED')),
);
/** Arguments of the two updates below: the changed columns by name, and the row's id and statuses. */
type UpdateArgs = Record<string, unknown> & { _id: string; _from: string; _at: bigint };
// The SET list depends on which changes a move makes: one statement per set of changed columns.
const TRANSITION = new PreparedShapes<UpdateArgs & { _to: string }, PaymentOrdersTable>((db, $, columns) =>
  db
    .updateTable('payment_orders')
    .set((eb) => ({
      ...columns,
      status: $('_to'),
      updated_at: $('_at'),
      sequence: eb('sequence', '+', 1n),
    }))
    .where('id', '=', $('_id'))
    .where('status', '=', $('_from'))
    .returningAll(),
);
const UPDATE = new PreparedShapes<UpdateArgs>((db, $, columns) =>
  db
    .updateTable('payment_orders')
    .set({ ...columns, updated_at: $('_at') })
    .where('id', '=', $('_id'))
    .where('status', '=', $('_from')),
);

const num = (v: bigint | null): number | null => (v === null ? null : Number(v));

function toOrder(row: PaymentOrdersTable): PaymentOrder {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    checkoutPreferenceId: row.checkout_preference_id,
    recurrentPaymentId: row.recurrent_payment_id,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    chargedAmountMinor: BigInt(row.charged_amount_minor),
    chargedCurrency: row.charged_currency,
    receivedAmountMinor: row.received_amount_minor === null ? null : BigInt(row.received_amount_minor),
    status: row.status as PaymentOrderStatus,
    anomaly: row.anomaly as PaymentAnomaly,
    title: row.title,
    origin: row.origin,
    externalId: row.external_id,
    paymentMethodId: row.payment_method_id,
    paymentMethodType: row.payment_method_type as PaymentMethodType,
    payer: {
      email: row.payer_email,
      firstName: row.payer_first_name,
      lastName: row.payer_last_name,
      phoneNumber: row.payer_phone_number,
    },
    instructions: row.instructions === null ? null : (JSON.parse(row.instructions) as PaymentInstructions),
    providerRef: row.provider_ref,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    sequence: Number(row.sequence),
    expiresAt: Number(row.expires_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiredAt: num(row.expired_at),
    closedAt: num(row.closed_at),
    refundedAt: num(row.refunded_at),
    periodIndex: num(row.period_index),
    periodAttempt: num(row.period_attempt),
    chainProgress: row.chain_progress === null ? null : decodeProgress(row.chain_progress),
  };
}

function decodeProgress(text: string): ChainProgress {
  const raw = JSON.parse(text) as { seen_minor: string; confirmations: number };
  return { seenMinor: BigInt(raw.seen_minor), confirmations: raw.confirmations };
}

function changesToRow(c: PaymentOrderChanges): Partial<PaymentOrdersTable> {
  const row: Partial<PaymentOrdersTable> = {};
  if (c.chainProgress !== undefined) {
    row.chain_progress =
      c.chainProgress === null
        ? null
        : JSON.stringify({
            seen_minor: c.chainProgress.seenMinor.toString(),
            confirmations: c.chainProgress.confirmations,
          });
  }
  if (c.anomaly !== undefined) {
    row.anomaly = c.anomaly;
  }
  if (c.receivedAmountMinor !== undefined) {
    row.received_amount_minor = c.receivedAmountMinor;
  }
  if (c.instructions !== undefined) {
    row.instructions = c.instructions === null ? null : JSON.stringify(c.instructions);
  }
  if (c.providerRef !== undefined) {
    row.provider_ref = c.providerRef;
  }
  if (c.failureCode !== undefined) {
    row.failure_code = c.failureCode;
  }
  if (c.failureMessage !== undefined) {
    row.failure_message = c.failureMessage;
  }
  if (c.expiredAt !== undefined) {
    row.expired_at = c.expiredAt === null ? null : BigInt(c.expiredAt);
  }
  if (c.closedAt !== undefined) {
    row.closed_at = c.closedAt === null ? null : BigInt(c.closedAt);
  }
  if (c.refundedAt !== undefined) {
    row.refunded_at = c.refundedAt === null ? null : BigInt(c.refundedAt);
  }
  return row;
}

export class KyselyPaymentOrderRepository implements PaymentOrderRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(o: PaymentOrder): Promise<void> {
    await INSERT.execute(this.db, {
      id: o.id,
      merchant_id: o.merchantId,
      mode: o.mode,
      kind: o.periodAttempt !== null ? 'RENEWAL' : 'CHECKOUT',
      period_index: o.periodIndex === null ? null : BigInt(o.periodIndex),
      period_attempt: o.periodAttempt === null ? null : BigInt(o.periodAttempt),
      checkout_preference_id: o.checkoutPreferenceId,
      recurrent_payment_id: o.recurrentPaymentId,
      amount_minor: o.amountMinor,
      currency: o.currency,
      charged_amount_minor: o.chargedAmountMinor,
      charged_currency: o.chargedCurrency,
      received_amount_minor: o.receivedAmountMinor,
      status: o.status,
      anomaly: o.anomaly,
      title: o.title,
      origin: o.origin,
      external_id: o.externalId,
      payment_method_id: o.paymentMethodId,
      payment_method_type: o.paymentMethodType,
      payer_email: o.payer.email,
      payer_first_name: o.payer.firstName,
      payer_last_name: o.payer.lastName,
      payer_phone_number: o.payer.phoneNumber,
      instructions: o.instructions === null ? null : JSON.stringify(o.instructions),
      provider_ref: o.providerRef,
      failure_code: o.failureCode,
      failure_message: o.failureMessage,
      sequence: BigInt(o.sequence),
      expires_at: BigInt(o.expiresAt),
      created_at: BigInt(o.createdAt),
      updated_at: BigInt(o.updatedAt),
      expired_at: o.expiredAt === null ? null : BigInt(o.expiredAt),
      closed_at: o.closedAt === null ? null : BigInt(o.closedAt),
      refunded_at: o.refundedAt === null ? null : BigInt(o.refundedAt),
    });
  }

  async get(merchantId: string, mode: Mode, id: string): Promise<PaymentOrder | undefined> {
    // By primary key alone, owner checked here: with the owner in the WHERE clause PostgreSQL may
    // pick a composite index on stale statistics and scan all of a merchant's rows.
    const row = await BY_ID.first(this.db, { id });
    return row && row.merchant_id === merchantId && row.mode === mode ? toOrder(row) : undefined;
  }

  async getById(id: string): Promise<PaymentOrder | undefined> {
    const row = await BY_ID.first(this.db, { id });
    return row ? toOrder(row) : undefined;
  }

  async getByProviderRef(merchantId: string, mode: Mode, ref: string): Promise<PaymentOrder | undefined> {
    // By the indexed reference alone (payment_orders_provider_ref), the owner checked here.
    const rows = await this.db.selectFrom('payment_orders').selectAll().where('provider_ref', '=', ref).execute();
    const row = rows.find((r) => r.merchant_id === merchantId && r.mode === mode);
    return row ? toOrder(row) : undefined;
  }

  async list(merchantId: string, mode: Mode, page: PageRequest, f: PaymentOrderFilter): Promise<Page<PaymentOrder>> {
    let q = this.db
      .selectFrom('payment_orders')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode);
    if (f.checkoutPreferenceId !== undefined) {
      q = q.where('checkout_preference_id', '=', f.checkoutPreferenceId);
    }
    if (f.recurrentPaymentId !== undefined) {
      q = q.where('recurrent_payment_id', '=', f.recurrentPaymentId);
    }
    if (f.externalId !== undefined) {
      q = q.where('external_id', '=', f.externalId);
    }
    if (f.status !== undefined) {
      q = q.where('status', '=', f.status);
    }
    if (f.createdGte !== undefined) {
      q = q.where('created_at', '>=', BigInt(f.createdGte));
    }
    if (f.paymentMethodType !== undefined) {
      q = q.where('payment_method_type', '=', f.paymentMethodType);
    }
    if (f.payerEmail !== undefined) {
      const email = f.payerEmail.toLowerCase();
      q = q.where((eb) => eb(eb.fn('lower', ['payer_email']), '=', email));
    }
    // The range's end and the cursor as one bound (see startBelow).
    return newestFirstPage(q, startBelow(page.cursor, f.createdLt), page.limit, toOrder);
  }

  async listOpenForPreference(preferenceId: string): Promise<PaymentOrder[]> {
    const { rows } = await OPEN_FOR_PREFERENCE.execute(this.db, { preferenceId });
    // Ids are unique: two orders never compare equal.
    return rows.map(toOrder).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  async transition(
    id: string,
    from: PaymentOrderStatus,
    to: PaymentOrderStatus,
    changes: PaymentOrderChanges,
    at: number,
  ): Promise<PaymentOrder | undefined> {
    // RETURNING: the moved order comes back from the update itself, not from a second read.
    const set = changesToRow(changes);
    const row = await TRANSITION.first(this.db, Object.keys(set), {
      ...set,
      _id: id,
      _from: from,
      _to: to,
      _at: BigInt(at),
    });
    return row ? toOrder(row) : undefined;
  }

  async update(id: string, status: PaymentOrderStatus, changes: PaymentOrderChanges, at: number): Promise<boolean> {
    const set = changesToRow(changes);
    const result = await UPDATE.execute(this.db, Object.keys(set), { ...set, _id: id, _from: status, _at: BigInt(at) });
    return changedRows(result);
  }

  async listDueForExpiry(now: number, limit: number): Promise<PaymentOrder[]> {
    const rows = await this.db
      .selectFrom('payment_orders')
      .selectAll()
      .where('status', '=', sql.lit('OPENED'))
      .where('expires_at', '<=', BigInt(now))
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map(toOrder);
  }

  async listOpenedCardOrders(limit: number): Promise<PaymentOrder[]> {
    // Literals, not parameters: a bound method or status would be compiled again on every run (above).
    const rows = await this.db
      .selectFrom('payment_orders')
      .selectAll()
      .where('status', '=', sql.lit('OPENED'))
      .where('payment_method_type', '=', sql.lit('CARD'))
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map(toOrder);
  }

  async listWatchedCrypto(mode: Mode, expiredSince: number, limit: number): Promise<PaymentOrder[]> {
    // The method as a literal, not a parameter: with the status literal too, it matches the
    // partial index payment_orders_expired_crypto (0016).
    const crypto = this.db
      .selectFrom('payment_orders')
      .selectAll()
      .where('payment_method_type', '=', sql.lit('CRYPTO_ONCHAIN'))
      .where('mode', '=', mode);
    // Two lists, each bounded: many recently expired orders must never crowd out the open ones.
    const opened = await crypto.where('status', '=', 'OPENED').orderBy('created_at').limit(limit).execute();
    const expired = await crypto
      .where('status', '=', sql.lit('EXPIRED'))
      .where('expired_at', '>=', BigInt(expiredSince))
      .orderBy('expired_at', 'desc')
      .limit(limit)
      .execute();
    return [...opened, ...expired].map(toOrder);
  }

  async listEndedCardOrders(since: number, limit: number): Promise<PaymentOrder[]> {
    const rows = await this.db
      .selectFrom('payment_orders')
      .selectAll()
      .where('payment_method_type', '=', sql.lit('CARD'))
      .where('status', 'in', [sql.lit('EXPIRED'), sql.lit('REJECTED')])
      .where('provider_ref', 'is not', null)
      .where('recurrent_payment_id', 'is', null)
      .where('updated_at', '>=', BigInt(since))
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    return rows.map(toOrder);
  }

  async countRejectedCardOrders(preferenceId: string): Promise<number> {
    const row = await REJECTED_CARD_ORDERS.first(this.db, { preferenceId });
    return Number(row?.n ?? 0);
  }

  async getRenewal(
    recurrentPaymentId: string,
    periodIndex: number,
    attempt: number,
  ): Promise<PaymentOrder | undefined> {
    const row = await RENEWAL.first(this.db, {
      recurrentPaymentId,
      periodIndex: BigInt(periodIndex),
      attempt: BigInt(attempt),
    });
    return row ? toOrder(row) : undefined;
  }

  async openRenewals(recurrentPaymentId: string): Promise<PaymentOrder[]> {
    const rows = await this.db
      .selectFrom('payment_orders')
      .selectAll()
      .where('recurrent_payment_id', '=', recurrentPaymentId)
      // Literals: see OPEN_FOR_PREFERENCE.
      .where('kind', '=', sql.lit('RENEWAL'))
      .where('status', '=', sql.lit('OPENED'))
      .execute();
    return rows.map(toOrder);
  }
}
