import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// A merchant's own processor accounts (a Stripe account for cards), one per merchant, mode and
// provider. The secret key and the webhook signing secret are sealed with the secrets key
// (domain/shared/secret-box.ts); the publishable key is public by design. `webhook_id` is the
// random last part of the URL the processor sends the connection's events to.
//
// connector_events keeps each event id received, with what Cobro did with it, so the same event
// delivered twice has one effect.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('processor_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('account_name', 'text')
    .addColumn('publishable_key', 'text', (c) => c.notNull())
    .addColumn('secret_key_sealed', 'text', (c) => c.notNull())
    .addColumn('webhook_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull().unique())
    .addColumn('webhook_endpoint_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_event_at', 'bigint')
    .addColumn('last_error', 'text')
    .addUniqueConstraint('processor_connections_one_per_mode', ['merchant_id', 'mode', 'provider'])
    .execute();
  await db.schema
    .createTable('connector_events')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('connector_events_pk', ['provider', 'event_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('connector_events').execute();
  await db.schema.dropTable('processor_connections').execute();
}
