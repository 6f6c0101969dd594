import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('checkout_preference_id', 'text')
    .addColumn('recurrent_payment_id', 'text')
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('charged_amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('charged_currency', 'text', (c) => c.notNull())
    .addColumn('received_amount_minor', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('anomaly', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('payment_method_type', 'text', (c) => c.notNull())
    .addColumn('payer_email', 'text')
    .addColumn('payer_first_name', 'text')
    .addColumn('payer_last_name', 'text')
    .addColumn('payer_phone_number', 'text')
    .addColumn('instructions', 'text')
    .addColumn('provider_ref', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('sequence', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expired_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .addColumn('refunded_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('payment_orders_list')
    .on('payment_orders')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('payment_orders_preference')
    .on('payment_orders')
    .columns(['checkout_preference_id'])
    .execute();
  await db.schema.createIndex('payment_orders_open').on('payment_orders').columns(['status', 'expires_at']).execute();
  // The database itself holds "at most one successful payment per checkout": whatever the
  // application does, a second CLOSED (or REFUNDED, which was CLOSED) order for one preference fails.
  await sql`create unique index payment_orders_one_paid_per_preference on payment_orders (checkout_preference_id) where kind = 'CHECKOUT' and status in ('CLOSED', 'REFUNDED')`.execute(
    db,
  );

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('checkout_preference_id', 'text')
    .addColumn('sequence', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_entity').on('events').columns(['entity_id', 'sequence']).execute();
  await db.schema
    .createIndex('events_list')
    .on('events')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();

  // Per-merchant counters: address derivation indexes and reference numbers, never reused.
  await db.schema
    .createTable('counters')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('counters_pk', ['merchant_id', 'mode', 'name'])
    .execute();

  await db.schema
    .createTable('test_clocks')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey())
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .execute();

  // A card charge in progress holds its preference, so two tabs cannot both be charged.
  await db.schema.alterTable('checkout_preferences').addColumn('charging_order_id', 'text').execute();
  await db.schema.alterTable('checkout_preferences').addColumn('charging_until', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('test_clocks').execute();
  await db.schema.dropTable('counters').execute();
  await db.schema.dropTable('events').execute();
  await db.schema.dropTable('payment_orders').execute();
}
