import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { KyselyChainScanStore } from '../../src/db/repositories/chain-scan.repository.ts';

/**
 * The chain watcher's real store (migration 0015's tables) on a fresh SQLite database of its
 * own, for tests of the watcher that need no service around it; `transfers()` counts what it holds,
 * `closeDatabase()` takes the database away (an outage) before the test ends.
 */
export async function chainScanStore(
  t: TestContext,
): Promise<{ store: KyselyChainScanStore; transfers(): Promise<number>; closeDatabase(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-scan-'));
  const database = await openDatabase({ url: `sqlite:${join(dir, 'cobro.db')}` });
  let closed = false;
  const closeDatabase = async () => {
    if (!closed) {
      closed = true;
      await database.close();
    }
  };
  t.after(async () => {
    await closeDatabase();
    rmSync(dir, { recursive: true, force: true });
  });
  await database.migrate();
  return {
    store: new KyselyChainScanStore(database.db, database.write),
    transfers: async () => (await database.db.selectFrom('chain_transfers').select('tx_hash').execute()).length,
    closeDatabase,
  };
}
