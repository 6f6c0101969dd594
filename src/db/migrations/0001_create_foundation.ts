import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_merchant').on('api_keys').columns(['merchant_id', 'mode']).execute();

  await db.schema
    .createTable('payment_methods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('country_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('min_amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('max_amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('network_id', 'text')
    .addColumn('network_name', 'text')
    .addColumn('cash_provider_id', 'text')
    .addColumn('cash_provider_name', 'text')
    .addColumn('crypto_provider_id', 'text')
    .addColumn('crypto_provider_name', 'text')
    .addColumn('allow_recurrent_payment', 'bigint', (c) => c.notNull())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval_type', 'text', (c) => c.notNull())
    .addColumn('interval_count', 'bigint')
    .addColumn('trial_interval_type', 'text')
    .addColumn('trial_interval_count', 'bigint', (c) => c.notNull())
    .addColumn('signup_fee_minor', 'bigint', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_links_list')
    .on('payment_links')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('checkout_preferences')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('origin_id', 'text')
    .addColumn('external_id', 'text')
    .addColumn('payment_link_id', 'text')
    .addColumn('payer_email', 'text')
    .addColumn('payer_first_name', 'text')
    .addColumn('payer_last_name', 'text')
    .addColumn('payer_phone_number', 'text')
    .addColumn('payment_method_types', 'text')
    .addColumn('selected_payment_method_id', 'text')
    .addColumn('status_changes_webhook', 'text')
    .addColumn('success_payment_redirect', 'text')
    .addColumn('error_payment_redirect', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('payment_order_id', 'text')
    .execute();
  await db.schema
    .createIndex('checkout_preferences_list')
    .on('checkout_preferences')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('checkout_preferences_external_id')
    .on('checkout_preferences')
    .columns(['merchant_id', 'mode', 'external_id'])
    .execute();
  await db.schema
    .createIndex('checkout_preferences_open_expiry')
    .on('checkout_preferences')
    .columns(['status', 'expires_at'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'bigint')
    .addColumn('response_body', 'text')
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['merchant_id', 'mode', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'idempotency_keys',
    'checkout_preferences',
    'payment_links',
    'payment_methods',
    'api_keys',
    'merchants',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
