import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// Indexes for reads that walked a status across every merchant. SQLite has no statistics
// unless ANALYZE runs, and for `… and status = ?` its planner took payment_orders_open
// (status, expires_at) over an index on the column that actually narrows the read:
//
// - A card payment counts its checkout's declined card orders (the decline lock): it walked
//   every declined order. The checkout index now holds the status too, so it matches two
//   equalities and wins; reads by checkout alone use its first column as before.
// - A subscription's open renewals (cancel, the payer's portal) walked every open order.
//   Only renewal orders have a subscription, so the index holds only those.
// - The chain watcher's recently expired crypto orders (late payments) walked every expired
//   order of every method, on every tick. The index holds only expired crypto orders; the
//   query names the method and status as literals, which is what lets both databases use it.
// - A merchant's e-mails (the test-mode mailbox, the dashboard) were read by walking the whole
//   outbound_emails table, every merchant's mails: it had no index by merchant.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payment_orders_preference').execute();
  await db.schema
    .createIndex('payment_orders_preference')
    .on('payment_orders')
    .columns(['checkout_preference_id', 'status'])
    .execute();
  await sql`create index payment_orders_subscription on payment_orders (recurrent_payment_id, status) where recurrent_payment_id is not null`.execute(
    db,
  );
  await sql`create index payment_orders_expired_crypto on payment_orders (mode, expired_at) where payment_method_type = 'CRYPTO_ONCHAIN' and status = 'EXPIRED'`.execute(
    db,
  );
  await db.schema
    .createIndex('outbound_emails_merchant')
    .on('outbound_emails')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('outbound_emails_merchant').execute();
  await db.schema.dropIndex('payment_orders_expired_crypto').execute();
  await db.schema.dropIndex('payment_orders_subscription').execute();
  await db.schema.dropIndex('payment_orders_preference').execute();
  await db.schema
    .createIndex('payment_orders_preference')
    .on('payment_orders')
    .columns(['checkout_preference_id'])
    .execute();
}
