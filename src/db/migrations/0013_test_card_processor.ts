import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// Test mode's card processor (providers/card/test-card-processor.ts) stands for a card network,
// which outlives the service calling it: its saved cards and charges are kept here, apart from
// Cobro's own records and never written in their transactions. A charge made just before Cobro
// crashed is then still there to be asked about by its idempotency key, by any process, and a
// card saved for a subscription can still be charged after a restart.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('test_card_tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'bigint', (c) => c.notNull())
    .addColumn('exp_year', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('test_card_charges')
    .addColumn('charge_id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // The processor's answer as JSON (amounts as decimal strings).
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('approve_at', 'bigint')
    .addColumn('refunded', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('test_card_charges').execute();
  await db.schema.dropTable('test_card_tokens').execute();
}
