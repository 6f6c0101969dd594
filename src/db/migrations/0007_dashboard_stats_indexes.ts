import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// The dashboard's home page (src/db/repositories/dashboard-stats.repository.ts) aggregates a
// merchant's orders, checkouts and subscriptions for one mode and currency over a range of days.
// Each index below starts with (merchant_id, mode, currency), then what the range is on, then
// every other column its query reads: the database answers from the index alone, reading
// only the entries in the range, however many rows the merchant has. The partial ones hold only
// the rows their query can want (orders that were paid, refunded, or renewals), so they stay
// small and cost nothing on writes of other rows.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Gross volume, payments paid, the daily series and the method mix: paid orders by UTC day of
  // closed_at, then method type. Keyed on the day expression itself (the query groups by it,
  // written identically), so both databases read the entries already in group order and
  // aggregate as they go, with no sort or hash of the range's rows; closed_at follows for the
  // exact bounds of a range that starts or ends within a day.
  await sql`create index payment_orders_paid_stats on payment_orders (merchant_id, mode, currency, (closed_at / 86400000), payment_method_type, closed_at, amount_minor) where closed_at is not null`.execute(
    db,
  );
  // Refunds by refunded_at.
  await sql`create index payment_orders_refund_stats on payment_orders (merchant_id, mode, currency, refunded_at, amount_minor) where refunded_at is not null`.execute(
    db,
  );
  // Failed renewals: renewal orders by status and the time of their last change.
  await sql`create index payment_orders_renewal_stats on payment_orders (merchant_id, mode, currency, status, updated_at) where period_attempt is not null`.execute(
    db,
  );
  // Conversion (preferences created in the range, how many paid) and the currency picker.
  await db.schema
    .createIndex('checkout_preferences_stats')
    .on('checkout_preferences')
    .columns(['merchant_id', 'mode', 'currency', 'created_at', 'status'])
    .execute();
  // Active subscriptions and MRR.
  await db.schema
    .createIndex('recurrent_payments_stats')
    .on('recurrent_payments')
    .columns(['merchant_id', 'mode', 'currency', 'status', 'interval_type', 'gross_amount_minor'])
    .execute();
  // Subscribers and MRR per plan (the plan list and plan pages).
  await db.schema
    .createIndex('recurrent_payments_plan_stats')
    .on('recurrent_payments')
    .columns(['merchant_id', 'mode', 'payment_link_id', 'status', 'interval_type', 'gross_amount_minor'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'recurrent_payments_plan_stats',
    'recurrent_payments_stats',
    'checkout_preferences_stats',
    'payment_orders_renewal_stats',
    'payment_orders_refund_stats',
    'payment_orders_paid_stats',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
}
