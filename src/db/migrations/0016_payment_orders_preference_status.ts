import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// A card payment first counts the checkout's declined card orders (the decline lock). With an
// index on the checkout alone, SQLite's planner (which has no statistics unless ANALYZE ran)
// preferred payment_orders_open (status, expires_at) for `status = 'REJECTED'`: every pay then
// walked every declined order of every merchant. With the status beside the checkout, the
// index matches two equalities and wins; reads by checkout alone use its first column as before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payment_orders_preference').execute();
  await db.schema
    .createIndex('payment_orders_preference')
    .on('payment_orders')
    .columns(['checkout_preference_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payment_orders_preference').execute();
  await db.schema
    .createIndex('payment_orders_preference')
    .on('payment_orders')
    .columns(['checkout_preference_id'])
    .execute();
}
