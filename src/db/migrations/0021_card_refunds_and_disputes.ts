import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// After a card payment taken through a merchant's processor connection (INTERFACE §11.1):
//
// card_refunds keeps, per order, the refund at the processor: its id there, where it stands as
// Cobro knows it (PENDING until the processor reports it done, SUCCEEDED, FAILED), who asked for
// it (COBRO: the API or the dashboard; PROCESSOR: the merchant in the processor's own dashboard),
// and when the card-refund-sync job looks at a pending one next.
//
// card_disputes keeps each dispute the processor reported, once per dispute id, on the order it
// concerns.
//
// payment_orders_provider_ref: a charge's, refund's or dispute's event names the payment by the
// processor's id (the order's provider_ref), not by the order.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('card_refunds')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('refund_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('next_check_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('card_refunds_due').on('card_refunds').columns(['next_check_at']).execute();
  await db.schema
    .createTable('card_disputes')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('dispute_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint')
    .addColumn('currency', 'text')
    .addColumn('evidence_due_by', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('card_disputes_pk', ['provider', 'dispute_id'])
    .execute();
  await db.schema.createIndex('card_disputes_order').on('card_disputes').columns(['order_id']).execute();
  await db.schema.createIndex('payment_orders_provider_ref').on('payment_orders').columns(['provider_ref']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payment_orders_provider_ref').execute();
  await db.schema.dropTable('card_disputes').execute();
  await db.schema.dropTable('card_refunds').execute();
}
