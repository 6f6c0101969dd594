import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The terms of every superseded version of a plan. The current version stays in payment_links;
  // a checkout opened before an edit is still sold on the terms its page showed.
  await db.schema
    .createTable('payment_link_versions')
    .addColumn('payment_link_id', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval_type', 'text', (c) => c.notNull())
    .addColumn('interval_count', 'bigint')
    .addColumn('trial_interval_type', 'text')
    .addColumn('trial_interval_count', 'bigint', (c) => c.notNull())
    .addColumn('signup_fee_minor', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('superseded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_link_versions_pk', ['payment_link_id', 'version'])
    .execute();
  // Which plan version a SUBSCRIPTION checkout was created with (null: older rows and PAYMENT).
  await db.schema.alterTable('checkout_preferences').addColumn('payment_link_version', 'bigint').execute();
  // What the payer page shows of the saved card: brand and last four digits only.
  await db.schema.alterTable('recurrent_payments').addColumn('card_brand', 'text').execute();
  await db.schema.alterTable('recurrent_payments').addColumn('card_last4', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('recurrent_payments').dropColumn('card_last4').execute();
  await db.schema.alterTable('recurrent_payments').dropColumn('card_brand').execute();
  await db.schema.alterTable('checkout_preferences').dropColumn('payment_link_version').execute();
  await db.schema.dropTable('payment_link_versions').execute();
}
