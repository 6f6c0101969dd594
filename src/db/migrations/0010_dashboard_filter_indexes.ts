import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// The dashboard's payment lists filter a merchant's orders (and checkouts) by status, method,
// external_id or payer e-mail, newest first, a page at a time after a (created_at, id) cursor.
// Each index below is (merchant_id, mode, the filtered value, created_at, id), so a filtered page
// is one index range read backwards from the cursor, however many rows the merchant has; without
// them a rare value meant walking the whole merchant's list. The e-mail is compared lower-cased,
// so the index is on the expression itself, written as the query writes it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('payment_orders_by_status')
    .on('payment_orders')
    .columns(['merchant_id', 'mode', 'status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('payment_orders_by_method')
    .on('payment_orders')
    .columns(['merchant_id', 'mode', 'payment_method_type', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('payment_orders_by_external_id')
    .on('payment_orders')
    .columns(['merchant_id', 'mode', 'external_id', 'created_at', 'id'])
    .execute();
  await sql`create index payment_orders_by_payer_email on payment_orders (merchant_id, mode, (lower(payer_email)), created_at, id)`.execute(
    db,
  );
  await db.schema
    .createIndex('checkout_preferences_by_status')
    .on('checkout_preferences')
    .columns(['merchant_id', 'mode', 'status', 'created_at', 'id'])
    .execute();
  await sql`create index checkout_preferences_by_payer_email on checkout_preferences (merchant_id, mode, (lower(payer_email)), created_at, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'checkout_preferences_by_payer_email',
    'checkout_preferences_by_status',
    'payment_orders_by_payer_email',
    'payment_orders_by_external_id',
    'payment_orders_by_method',
    'payment_orders_by_status',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
}
