import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// API Pix connections (INTERFACE §11.2) live in processor_connections beside Stripe's: `settings`
// holds what is not secret (the PSP's URLs, the profile, the client id, the PIX key, extra CA
// certificates) as JSON; the client secret and the client certificate's key are sealed in
// secret_key_sealed.
//
// pix_charges keeps, per PIX order of a connected merchant, the charge (`cob`) at the PSP: its
// txid (fixed by the order), where it stands as far as Cobro knows, the Pix that paid it and the
// refund asked for. The pix-sync job picks the rows due (next_check_at) and moves each along:
// create the charge, check it, remove it when the order ended unpaid, follow a refund.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('processor_connections').addColumn('settings', 'text').execute();
  await db.schema
    .createTable('pix_charges')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('txid', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('end_to_end_id', 'text')
    .addColumn('refund_id', 'text')
    .addColumn('next_check_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('pix_charges_txid', ['connection_id', 'txid'])
    .execute();
  await db.schema.createIndex('pix_charges_due').on('pix_charges').columns(['next_check_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pix_charges').execute();
  await db.schema.alterTable('processor_connections').dropColumn('settings').execute();
}
