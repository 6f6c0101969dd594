import type { Kysely } from 'kysely';

// Only SQL that SQLite and PostgreSQL both accept. Never edit once shipped: add a migration.
//
// Live EVM networks are watched by scanning ERC-20 Transfer logs block range by block range
// (providers/crypto-onchain/evm-watcher.ts). Where the scan stopped, with the hashes of the last
// blocks it ended on (to notice a reorg and rescan from the fork), is kept per network, so a
// restart or an outage catches up from there; the transfers found are kept to be counted
// against the orders' addresses as they gain confirmations.
//
// payment_orders.chain_progress is what the checkout shows a payer of a crypto order before it
// closes: the amount seen on chain and the confirmations it has (JSON), written by the watcher.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chain_cursors')
    .addColumn('network', 'text', (c) => c.primaryKey())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    // [[block_number, block_hash], …], newest first: the ends of the last scans.
    .addColumn('checkpoints', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('chain_transfers')
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'bigint', (c) => c.notNull())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('contract', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    // Base units as a decimal string: a token's uint256 does not fit a bigint.
    .addColumn('amount', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chain_transfers_pk', ['network', 'tx_hash', 'log_index'])
    .execute();
  await db.schema
    .createIndex('chain_transfers_to')
    .on('chain_transfers')
    .columns(['network', 'to_address', 'block_number'])
    .execute();
  await db.schema.alterTable('payment_orders').addColumn('chain_progress', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_orders').dropColumn('chain_progress').execute();
  await db.schema.dropTable('chain_transfers').execute();
  await db.schema.dropTable('chain_cursors').execute();
}
