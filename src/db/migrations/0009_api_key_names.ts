import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// API keys get a name (given in the dashboard when the pair is created; keys made before, or by
// the command line, have none) and the time of their last use. `last_used_at` is written at most
// once an hour per key and process (MerchantService.authenticate), never on every request.
// And an index for an endpoint's recent deliveries (the dashboard's endpoint page).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_endpoint').execute();
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
  await db.schema.alterTable('api_keys').dropColumn('name').execute();
}
