import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// The business profile's logo (PNG or JPEG, at most 256 KB, validated before it is stored):
// kept in the database, not on local disk, so every process serving the checkout finds it. It
// is addressed by its SHA-256, so its URL can be cached for good; settings name the current one
// and older ones are deleted when it changes. The bytes are base64 text: BLOB and BYTEA are
// not one type on both databases, and a logo is read rarely (browsers cache it a year).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchant_logos')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'bigint', (c) => c.notNull())
    .addColumn('height', 'bigint', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('merchant_logos_pk', ['merchant_id', 'sha256'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('merchant_logos').execute();
}
