import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recurrent_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('payment_link_id', 'text', (c) => c.notNull())
    .addColumn('plan_version', 'bigint', (c) => c.notNull())
    .addColumn('checkout_preference_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('gross_amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval_type', 'text', (c) => c.notNull())
    .addColumn('interval_count', 'bigint')
    .addColumn('trial_interval_type', 'text')
    .addColumn('trial_interval_count', 'bigint', (c) => c.notNull())
    .addColumn('signup_fee_minor', 'bigint', (c) => c.notNull())
    .addColumn('payment_method_id', 'text', (c) => c.notNull())
    .addColumn('payment_method_type', 'text', (c) => c.notNull())
    .addColumn('card_token', 'text')
    .addColumn('payer_email', 'text')
    .addColumn('payer_first_name', 'text')
    .addColumn('payer_last_name', 'text')
    .addColumn('payer_phone_number', 'text')
    .addColumn('external_id', 'text')
    .addColumn('anchor_at', 'bigint')
    .addColumn('current_period_start', 'bigint')
    .addColumn('current_period_end', 'bigint')
    .addColumn('next_payment_date', 'bigint')
    .addColumn('periods_paid', 'bigint', (c) => c.notNull())
    .addColumn('failed_attempts', 'bigint', (c) => c.notNull())
    .addColumn('sequence', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('canceled_at', 'bigint')
    .addColumn('deleted_by', 'text')
    .execute();
  await db.schema
    .createIndex('recurrent_payments_list')
    .on('recurrent_payments')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('recurrent_payments_due')
    .on('recurrent_payments')
    .columns(['status', 'next_payment_date'])
    .execute();
  // One subscription per checkout preference: a second payer attempt reuses it.
  await db.schema
    .createIndex('recurrent_payments_preference')
    .on('recurrent_payments')
    .column('checkout_preference_id')
    .unique()
    .execute();

  // Renewal charges: which period of which subscription, and which try.
  await db.schema.alterTable('payment_orders').addColumn('period_index', 'bigint').execute();
  await db.schema.alterTable('payment_orders').addColumn('period_attempt', 'bigint').execute();
  // Two schedulers can never open the same try of the same period...
  await sql`create unique index payment_orders_one_try_per_period on payment_orders (recurrent_payment_id, period_index, period_attempt) where period_index is not null`.execute(
    db,
  );
  // ...and a period is paid at most once, whatever happens.
  await sql`create unique index payment_orders_one_paid_per_period on payment_orders (recurrent_payment_id, period_index) where period_index is not null and status in ('CLOSED', 'REFUNDED')`.execute(
    db,
  );

  // Mail to payers (renewal instructions). Kept whether or not SMTP is configured: the test-mode
  // mailbox page reads it, and operators can see what was sent.
  await db.schema
    .createTable('outbound_emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('outbound_emails_status')
    .on('outbound_emails')
    .columns(['status', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('outbound_emails').execute();
  await db.schema.dropTable('recurrent_payments').execute();
}
