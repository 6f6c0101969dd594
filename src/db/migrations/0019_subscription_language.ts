import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// The language a payer subscribed in ('en', 'es' or 'pt': the checkout page's when the first
// order was opened), so the renewal e-mails speak it. Null for subscriptions made before, and
// read as English.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('recurrent_payments').addColumn('payer_language', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('recurrent_payments').dropColumn('payer_language').execute();
}
