import type { Kysely } from 'kysely';
import type { ScanCursor, TokenTransfer } from '../../domain/payment-methods/chain-scan.ts';
import type { ChainScanStore } from '../../domain/repositories/chain-scan.repository.ts';
import type { ChainCursorsTable, Database } from '../schema.ts';

function toCursor(row: ChainCursorsTable): ScanCursor {
  const checkpoints = (JSON.parse(row.checkpoints) as [number, string][]).map(([block, hash]) => ({ block, hash }));
  return { block: Number(row.block_number), hash: row.block_hash, checkpoints };
}

function cursorRow(cursor: ScanCursor) {
  return {
    block_number: BigInt(cursor.block),
    block_hash: cursor.hash,
    checkpoints: JSON.stringify(cursor.checkpoints.map((c) => [c.block, c.hash])),
    updated_at: BigInt(Date.now()),
  };
}

/** Compare-and-set: moves the cursor to `next` only if it is still at `expected`. */
async function moveCursor(db: Kysely<Database>, network: string, expected: ScanCursor, next: ScanCursor) {
  const moved = await db
    .updateTable('chain_cursors')
    .set(cursorRow(next))
    .where('network', '=', network)
    .where('block_number', '=', BigInt(expected.block))
    .where('block_hash', '=', expected.hash)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}

/**
 * Live EVM networks' scans (migration 0015). The chain watcher's own records, as the test card
 * processor's are: written in transactions of their own, never in an order's. Every move of a
 * cursor is a compare-and-set on where it was, so with several workers scanning one chain,
 * one write wins and the others' scans of the same blocks are dropped.
 */
export class KyselyChainScanStore implements ChainScanStore {
  /** `db` reads committed data; `write` runs a transaction (OpenDatabase's). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly write: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>,
  ) {}

  async cursor(network: string): Promise<ScanCursor | null> {
    const row = await this.db.selectFrom('chain_cursors').selectAll().where('network', '=', network).executeTakeFirst();
    return row ? toCursor(row) : null;
  }

  advance(
    network: string,
    expected: ScanCursor | null,
    next: ScanCursor,
    transfers: TokenTransfer[],
  ): Promise<boolean> {
    return this.write(async (db) => {
      if (expected === null) {
        const inserted = await db
          .insertInto('chain_cursors')
          .values({ network, ...cursorRow(next) })
          .onConflict((oc) => oc.column('network').doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
      }
      if (!(await moveCursor(db, network, expected, next))) {
        return false;
      }
      if (transfers.length > 0) {
        await db
          .insertInto('chain_transfers')
          .values(
            transfers.map((t) => ({
              network,
              tx_hash: t.txHash,
              log_index: BigInt(t.logIndex),
              block_number: BigInt(t.blockNumber),
              block_hash: t.blockHash,
              contract: t.contract,
              to_address: t.to,
              amount: t.amount.toString(),
            })),
          )
          // A reorg that put the same transaction in the same place again, scanned twice.
          .onConflict((oc) => oc.columns(['network', 'tx_hash', 'log_index']).doNothing())
          .execute();
      }
      return true;
    });
  }

  rewind(network: string, expected: ScanCursor, fork: ScanCursor): Promise<boolean> {
    return this.write(async (db) => {
      if (!(await moveCursor(db, network, expected, fork))) {
        return false;
      }
      await db
        .deleteFrom('chain_transfers')
        .where('network', '=', network)
        .where('block_number', '>', BigInt(fork.block))
        .execute();
      return true;
    });
  }

  async transfersTo(network: string, addresses: string[]): Promise<TokenTransfer[]> {
    const out: TokenTransfer[] = [];
    // Bounded IN lists: SQLite caps bound parameters per statement.
    for (let i = 0; i < addresses.length; i += 500) {
      const rows = await this.db
        .selectFrom('chain_transfers')
        .selectAll()
        .where('network', '=', network)
        .where('to_address', 'in', addresses.slice(i, i + 500))
        .execute();
      for (const r of rows) {
        out.push({
          contract: r.contract,
          to: r.to_address,
          amount: BigInt(r.amount),
          txHash: r.tx_hash,
          logIndex: Number(r.log_index),
          blockNumber: Number(r.block_number),
          blockHash: r.block_hash,
        });
      }
    }
    return out;
  }
}
