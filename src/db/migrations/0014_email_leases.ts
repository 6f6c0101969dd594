import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// Queued e-mails are sent by any worker: a worker leases the mails it will send (as webhook
// deliveries are leased), so two workers never send the same mail, and a worker that dies
// mid-send leaves them to another once the lease lapses.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbound_emails').addColumn('locked_until', 'bigint').execute();
  await db.schema.alterTable('outbound_emails').addColumn('lease_token', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbound_emails').dropColumn('lease_token').execute();
  await db.schema.alterTable('outbound_emails').dropColumn('locked_until').execute();
}
