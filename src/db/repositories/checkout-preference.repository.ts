import type { Kysely, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type {
  CheckoutPreference,
  PreferenceFilter,
  PreferenceOrigin,
  PreferenceStatus,
  PreferenceType,
} from '../../domain/checkout-preferences/checkout-preference.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { PaymentMethodType } from '../../domain/payment-methods/payment-method.ts';
import type { CheckoutPreferenceRepository } from '../../domain/repositories/checkout-preference.repository.ts';
import type { Page, PageRequest } from '../../domain/shared/page.ts';
import type { CheckoutPreferencesTable, Database } from '../schema.ts';
import { newestFirstPage, startBelow } from './page.ts';
import { changedRows, PreparedInsert, PreparedQuery } from './prepared.ts';

// The two statements every integration runs most, compiled once (see prepared.ts).
const BY_ID = new PreparedQuery<{ id: string }, CheckoutPreferencesTable>((db, $) =>
  db.selectFrom('checkout_preferences').selectAll().where('id', '=', $('id')),
);

const INSERT = new PreparedInsert('checkout_preferences');

// What every card payment runs on its checkout: the charging lock, taken, given back or spent by the payment.
const CLAIM_CHARGING = new PreparedQuery<{ id: string; orderId: string; until: bigint; now: bigint }>((db, $) =>
  db
    .updateTable('checkout_preferences')
    .set({ charging_order_id: $('orderId'), charging_until: $('until') })
    .where('id', '=', $('id'))
    .where('status', '=', 'OPEN')
    .where((eb) => eb.or([eb('charging_until', 'is', null), eb('charging_until', '<=', $('now'))])),
);
const RELEASE_CHARGING = new PreparedQuery<{ id: string; orderId: string }>((db, $) =>
  db
    .updateTable('checkout_preferences')
    .set({ charging_order_id: null, charging_until: null })
    .where('id', '=', $('id'))
    .where('charging_order_id', '=', $('orderId')),
);
const MARK_PAID = new PreparedQuery<{ id: string; orderId: string; at: bigint }>((db, $) => {
  // Every SET expression reads the row as it was, so both CASEs test the old lock holder.
  const heldByOrder = sql<SqlBool>`charging_order_id = ${$('orderId')}`;
  return db
    .updateTable('checkout_preferences')
    .set({
      status: 'PAID',
      payment_order_id: $('orderId'),
      updated_at: $('at'),
      charging_order_id: sql<string | null>`case when ${heldByOrder} then null else charging_order_id end`,
      charging_until: sql<bigint | null>`case when ${heldByOrder} then null else charging_until end`,
    })
    .where('id', '=', $('id'))
    .where('status', '=', 'OPEN');
});
const SET_LATEST_ORDER = new PreparedQuery<{ id: string; orderId: string; at: bigint }>((db, $) =>
  db
    .updateTable('checkout_preferences')
    .set({ payment_order_id: $('orderId'), updated_at: $('at') })
    .where('id', '=', $('id')),
);

function toPreference(row: CheckoutPreferencesTable): CheckoutPreference {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    type: row.type as PreferenceType,
    status: row.status as PreferenceStatus,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    title: row.title,
    origin: row.origin as PreferenceOrigin,
    originId: row.origin_id,
    externalId: row.external_id,
    paymentLinkId: row.payment_link_id,
    paymentLinkVersion: row.payment_link_version === null ? null : Number(row.payment_link_version),
    payer: {
      email: row.payer_email,
      firstName: row.payer_first_name,
      lastName: row.payer_last_name,
      phoneNumber: row.payer_phone_number,
    },
    paymentMethodTypes:
      row.payment_method_types === null ? null : (JSON.parse(row.payment_method_types) as PaymentMethodType[]),
    selectedPaymentMethodId: row.selected_payment_method_id,
    customUrls: {
      statusChangesWebhook: row.status_changes_webhook,
      successPaymentRedirect: row.success_payment_redirect,
      errorPaymentRedirect: row.error_payment_redirect,
    },
    expiresAt: Number(row.expires_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    paymentOrderId: row.payment_order_id,
  };
}

export class KyselyCheckoutPreferenceRepository implements CheckoutPreferenceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(p: CheckoutPreference): Promise<void> {
    await INSERT.execute(this.db, {
      id: p.id,
      merchant_id: p.merchantId,
      mode: p.mode,
      type: p.type,
      status: p.status,
      amount_minor: p.amountMinor,
      currency: p.currency,
      title: p.title,
      origin: p.origin,
      origin_id: p.originId,
      external_id: p.externalId,
      payment_link_id: p.paymentLinkId,
      payment_link_version: p.paymentLinkVersion === null ? null : BigInt(p.paymentLinkVersion),
      payer_email: p.payer.email,
      payer_first_name: p.payer.firstName,
      payer_last_name: p.payer.lastName,
      payer_phone_number: p.payer.phoneNumber,
      payment_method_types: p.paymentMethodTypes === null ? null : JSON.stringify(p.paymentMethodTypes),
      selected_payment_method_id: p.selectedPaymentMethodId,
      status_changes_webhook: p.customUrls.statusChangesWebhook,
      success_payment_redirect: p.customUrls.successPaymentRedirect,
      error_payment_redirect: p.customUrls.errorPaymentRedirect,
      expires_at: BigInt(p.expiresAt),
      created_at: BigInt(p.createdAt),
      updated_at: BigInt(p.updatedAt),
      payment_order_id: p.paymentOrderId,
    });
  }

  async get(merchantId: string, mode: Mode, id: string): Promise<CheckoutPreference | undefined> {
    // By primary key alone, owner checked here: with the owner in the WHERE clause PostgreSQL may
    // pick a composite index on stale statistics and scan all of a merchant's rows.
    const row = await BY_ID.first(this.db, { id });
    return row && row.merchant_id === merchantId && row.mode === mode ? toPreference(row) : undefined;
  }

  async list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: PreferenceFilter,
  ): Promise<Page<CheckoutPreference>> {
    let q = this.db
      .selectFrom('checkout_preferences')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode);
    if (filter.type) {
      q = q.where('type', '=', filter.type);
    }
    if (filter.externalId !== undefined) {
      q = q.where('external_id', '=', filter.externalId);
    }
    if (filter.createdGte !== undefined) {
      q = q.where('created_at', '>=', BigInt(filter.createdGte));
    }
    if (filter.paymentMethodType !== undefined) {
      const type = filter.paymentMethodType;
      q = q.where('payment_order_id', 'in', (eb) =>
        eb
          .selectFrom('payment_orders')
          .select('payment_orders.id')
          .where('payment_orders.merchant_id', '=', merchantId)
          .where('payment_orders.mode', '=', mode)
          .where('payment_orders.payment_method_type', '=', type),
      );
    }
    if (filter.payerEmail !== undefined) {
      const email = filter.payerEmail.toLowerCase();
      // One id list from two index ranges (the merchant's e-mail, the e-mails typed on orders):
      // an OR of the two made both databases walk the merchant's whole list instead.
      q = q.where('id', 'in', (eb) =>
        eb
          .selectFrom('checkout_preferences as own')
          .select('own.id')
          .where('own.merchant_id', '=', merchantId)
          .where('own.mode', '=', mode)
          .where((o) => o(o.fn('lower', ['own.payer_email']), '=', email))
          .union(
            eb
              .selectFrom('payment_orders')
              .select('payment_orders.checkout_preference_id as id')
              .where('payment_orders.merchant_id', '=', merchantId)
              .where('payment_orders.mode', '=', mode)
              .where((o) => o(o.fn('lower', ['payment_orders.payer_email']), '=', email))
              .where('payment_orders.checkout_preference_id', 'is not', null)
              .$narrowType<{ id: string }>(),
          ),
      );
    }
    if (filter.status) {
      // An OPEN row past its expiry reads as EXPIRED (see effectiveStatus), so filter the same way.
      const now = BigInt(filter.now ?? Date.now());
      const status = filter.status;
      if (status === 'OPEN') {
        // `not (expires_at <= now)`, not `expires_at > now`: the same rows, but a range on
        // expires_at drew SQLite (no statistics) to checkout_preferences_open_expiry, every
        // merchant's open checkouts, over the merchant's own in checkout_preferences_by_status.
        q = q.where('status', '=', 'OPEN').where((eb) => eb.not(eb('expires_at', '<=', now)));
      } else if (status === 'EXPIRED') {
        q = q.where((eb) =>
          eb.or([eb('status', '=', 'EXPIRED'), eb.and([eb('status', '=', 'OPEN'), eb('expires_at', '<=', now)])]),
        );
      } else {
        q = q.where('status', '=', status);
      }
    }
    // The range's end and the cursor as one bound (see startBelow).
    return newestFirstPage(q, startBelow(page.cursor, filter.createdLt), page.limit, toPreference);
  }

  async getById(id: string): Promise<CheckoutPreference | undefined> {
    const row = await BY_ID.first(this.db, { id });
    return row ? toPreference(row) : undefined;
  }

  async claimCharging(id: string, orderId: string, until: number, now: number): Promise<boolean> {
    return changedRows(await CLAIM_CHARGING.execute(this.db, { id, orderId, until: BigInt(until), now: BigInt(now) }));
  }

  async releaseCharging(id: string, orderId: string): Promise<void> {
    await RELEASE_CHARGING.execute(this.db, { id, orderId });
  }

  async markPaid(id: string, orderId: string, at: number): Promise<boolean> {
    return changedRows(await MARK_PAID.execute(this.db, { id, orderId, at: BigInt(at) }));
  }

  async setLatestOrder(id: string, orderId: string, at: number): Promise<void> {
    await SET_LATEST_ORDER.execute(this.db, { id, orderId, at: BigInt(at) });
  }

  async anyDue(horizon: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('checkout_preferences')
      .select('id')
      .where('status', '=', 'OPEN')
      .where('expires_at', '<=', BigInt(horizon))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async expireDue(
    now: number,
    scope: { mode: Mode; merchantId?: string; excludeMerchants?: string[] },
    limit: number,
  ): Promise<number> {
    let q = this.db
      .selectFrom('checkout_preferences')
      .select('id')
      .where('status', '=', 'OPEN')
      .where('expires_at', '<=', BigInt(now))
      .where('mode', '=', scope.mode);
    if (scope.merchantId !== undefined) {
      q = q.where('merchant_id', '=', scope.merchantId);
    }
    if (scope.excludeMerchants && scope.excludeMerchants.length > 0) {
      q = q.where('merchant_id', 'not in', scope.excludeMerchants);
    }
    const ids = (await q.limit(limit).execute()).map((r) => r.id);
    if (ids.length === 0) {
      return 0;
    }
    const result = await this.db
      .updateTable('checkout_preferences')
      .set({ status: 'EXPIRED', updated_at: BigInt(now) })
      .where('id', 'in', ids)
      .where('status', '=', 'OPEN')
      .where('expires_at', '<=', BigInt(now))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
