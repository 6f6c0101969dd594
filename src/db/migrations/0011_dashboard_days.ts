import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// The home page's figures of days that can no longer change (see SETTLE_AFTER_MS and
// SEAL_AFTER_MS in src/domain/dashboard/stats.ts), one row per merchant, mode, currency and UTC day, and one per
// payment method type that day: a 90-day range then reads a few hundred rows instead of every
// payment and checkout of the range. A row is written once, when a range that covers its day is
// first shown, and never updated; a day's row in dashboard_days is what says it is sealed (zeros
// included), its method rows may be none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_days')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    // Null until the day's conversion is final (nine days after it, against two hours for the rest).
    .addColumn('checkouts_created', 'bigint')
    .addColumn('checkouts_paid', 'bigint')
    .addColumn('refunds', 'bigint', (c) => c.notNull())
    .addColumn('refunded_minor', 'bigint', (c) => c.notNull())
    .addColumn('failed_renewals', 'bigint', (c) => c.notNull())
    .addColumn('sealed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_days_pk', ['merchant_id', 'mode', 'currency', 'day'])
    .execute();
  await db.schema
    .createTable('dashboard_day_methods')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('payment_method_type', 'text', (c) => c.notNull())
    .addColumn('payments', 'bigint', (c) => c.notNull())
    .addColumn('volume_minor', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_day_methods_pk', [
      'merchant_id',
      'mode',
      'currency',
      'day',
      'payment_method_type',
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboard_day_methods').execute();
  await db.schema.dropTable('dashboard_days').execute();
}
