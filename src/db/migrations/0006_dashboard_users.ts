import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
// The merchant dashboard's people: users, their role per merchant, invitations, sessions,
// password resets, sign-in throttling and the audit log. Every token is stored as its SHA-256.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    // Sealed with the secrets key: it must be read back to check codes.
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled_at', 'bigint')
    .addColumn('totp_last_step', 'bigint')
    // JSON array of SHA-256 hashes; a used code is removed.
    .addColumn('recovery_codes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('dashboard_memberships')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_memberships_pk', ['user_id', 'merchant_id'])
    .execute();
  await db.schema
    .createIndex('dashboard_memberships_merchant')
    .on('dashboard_memberships')
    .columns(['merchant_id', 'role'])
    .execute();
  await db.schema
    .createTable('dashboard_invitations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('dashboard_invitations_merchant')
    .on('dashboard_invitations')
    .columns(['merchant_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // PASSWORD: the password was right and a second factor is still due; FULL: signed in.
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sessions_user').on('dashboard_sessions').column('user_id').execute();
  await db.schema
    .createTable('dashboard_password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  // Failed sign-ins per key (`account:<email>`, `address:<ip>`) in fixed windows, shared by every process.
  await db.schema
    .createTable('dashboard_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('object_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_merchant_at').on('audit_log').columns(['merchant_id', 'at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'audit_log',
    'dashboard_throttle',
    'dashboard_password_resets',
    'dashboard_sessions',
    'dashboard_invitations',
    'dashboard_memberships',
    'dashboard_users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
