import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// A request that changes state in several transactions (a payment: the order is opened, then
// charged or confirmed) records on its idempotency key, in the transaction that opens the order,
// which object it started. If its process dies before the answer is stored, a retry with the same
// key resumes from that object instead of starting again (which would find the checkout paid and
// answer 409 for a payment that happened).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('resource_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('resource_id').execute();
}
