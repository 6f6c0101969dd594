import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getCreateAddress } from 'ethers';
import type { ChainScanStore } from '../../../src/domain/repositories/chain-scan.repository.ts';
import { EvmRpcClient } from '../../../src/providers/crypto-onchain/evm-rpc.ts';
import type { EvmWatcherOptions } from '../../../src/providers/crypto-onchain/evm-watcher.ts';
import { EvmWatcher } from '../../../src/providers/crypto-onchain/evm-watcher.ts';
import { chainScanStore } from '../../support/chain-scan-store.ts';
import type { EvmNode } from '../../support/evm-node.ts';
import { startEvmNode } from '../../support/evm-node.ts';

// The EVM watcher against a real node (ganache), with small limits so that the scan's ranges,
// its batches of addresses and its fork points are all exercised by a few blocks.

const PAYEES = [
  '0x1000000000000000000000000000000000000001',
  '0x2000000000000000000000000000000000000002',
  '0x3000000000000000000000000000000000000003',
];

/** A watcher of the node's network 'base' for its USDC token (6 decimals), with the test's limits. */
function usdcWatcher(
  node: EvmNode,
  token: string,
  store: ChainScanStore,
  options: Partial<EvmWatcherOptions>,
): EvmWatcher {
  return new EvmWatcher(new EvmRpcClient({ url: node.url }), store, {
    network: 'base',
    chainId: node.chainId,
    tokens: { USDC: token },
    decimalsOf: () => 6,
    ...options,
  });
}

test('transfers spread over many blocks and addresses are all found, in ranges of a few blocks and a few addresses per call', async (t) => {
  const node = await startEvmNode(t);
  const token = await node.deployToken({ decimals: 6 });
  const { store } = await chainScanStore(t);
  const watcher = usdcWatcher(node, token, store, {
    maxRange: 3,
    maxRangesPerTick: 100,
    addressesPerCall: 1,
    initialLookback: 0,
  });
  const watches = PAYEES.map((address) => ({ address, currency: 'USDC' }));
  await watcher.refresh();
  await watcher.received('base', watches);
  const minedAt: number[] = [];
  for (const [i, payee] of PAYEES.entries()) {
    minedAt.push((await node.transfer(token, payee, BigInt(1_000_000 * (i + 1)))).blockNumber);
    await node.mine(4);
  }
  await node.transfer(token, PAYEES[0] as string, 5n);
  await watcher.refresh();
  const received = await watcher.received('base', watches);
  const tip = await node.blockNumber();
  assert.deepEqual(
    PAYEES.map((p) => received.get(p)?.map((r) => r.amountBaseUnits)),
    [[1_000_000n, 5n], [2_000_000n], [3_000_000n]],
  );
  assert.equal(received.get(PAYEES[0] as string)?.[1]?.confirmations, 1);
  assert.equal(received.get(PAYEES[0] as string)?.[0]?.confirmations, tip - (minedAt[0] as number) + 1);
  assert.equal(watcher.status().lagBlocks, 0);
});

test('a reorg deeper than the last scan is undone back to the newest scan end still on the chain', async (t) => {
  const node = await startEvmNode(t);
  const token = await node.deployToken({ decimals: 6 });
  const { store, transfers } = await chainScanStore(t);
  const reorgs: [number, number][] = [];
  const watcher = usdcWatcher(node, token, store, {
    initialLookback: 0,
    onReorg: (fork, from) => reorgs.push([fork, from]),
  });
  const watches = [{ address: PAYEES[1] as string, currency: 'USDC' }];
  const look = async () => {
    await watcher.refresh();
    return (await watcher.received('base', watches)).get(PAYEES[1] as string) ?? [];
  };
  await look();
  const forkAt = await node.blockNumber();
  const fork = await node.snapshot();
  // Three scans end above the fork, the payment in the first of them.
  await node.transfer(token, PAYEES[1] as string, 7_000_000n);
  assert.equal((await look()).length, 1);
  await node.mine(2);
  await look();
  await node.mine(2);
  assert.equal((await look())[0]?.confirmations, 5);
  // A longer chain without the payment replaces all of it.
  await node.revert(fork);
  await node.mine(8);
  assert.deepEqual(await look(), []);
  assert.deepEqual(reorgs, [[forkAt, forkAt + 5]]);
  assert.equal(await transfers(), 0);
});

test('a database outage during a scan is not counted against the node: no node error, no backoff', async (t) => {
  const node = await startEvmNode(t);
  const token = await node.deployToken({ decimals: 6 });
  const { store, closeDatabase } = await chainScanStore(t);
  let now = 1_000_000;
  const watcher = usdcWatcher(node, token, store, {
    initialLookback: 0,
    now: () => now,
    backoffMs: () => 60_000,
  });
  const watches = [{ address: PAYEES[2] as string, currency: 'USDC' }];
  await watcher.refresh();
  await watcher.received('base', watches);
  await node.mine(1);
  await closeDatabase();
  await watcher.refresh();
  await assert.rejects(watcher.received('base', watches));
  assert.equal(watcher.status().errors, 0);
  assert.equal(watcher.status().lastError, null);
  // The node is asked again at once (a node failure would wait out its backoff first).
  now += 1;
  await node.mine(1);
  await watcher.refresh();
  assert.equal(watcher.status().tipHeight, await node.blockNumber());
});

test("a token checked before its contract is there is DISABLED, then enabled by the check after the backoff, and what was paid in it meanwhile counts; the other token's payments count throughout", async (t) => {
  const node = await startEvmNode(t);
  const usdc = await node.deployToken({ decimals: 6, symbol: 'USDC' });
  // Where the deployer's next contract will be: the token a node still syncing does not have yet.
  const deployer = node.accounts[0] as string;
  const usdt = getCreateAddress({
    from: deployer,
    nonce: Number(await node.rpc<string>('eth_getTransactionCount', [deployer, 'latest'])),
  }).toLowerCase();
  const { store } = await chainScanStore(t);
  let now = 1_000_000;
  const watcher = new EvmWatcher(new EvmRpcClient({ url: node.url }), store, {
    network: 'ethereum',
    chainId: node.chainId,
    tokens: { USDC: usdc, USDT: usdt },
    decimalsOf: () => 6,
    initialLookback: 0,
    now: () => now,
    backoffMs: () => 60_000,
  });
  const [payee, other] = PAYEES as [string, string];
  const watches = [
    { address: payee, currency: 'USDT' },
    { address: other, currency: 'USDC' },
  ];
  const amounts = async () => {
    await watcher.refresh();
    const received = await watcher.received('ethereum', watches);
    return [payee, other].map((a) => received.get(a)?.map((r) => r.amountBaseUnits));
  };
  assert.deepEqual(await amounts(), [[], []]);
  assert.equal(watcher.status().tokens?.USDT?.status, 'DISABLED');
  assert.match(watcher.status().tokens?.USDT?.reason ?? '', /^USDT at 0x[0-9a-f]{40} did not answer decimals\(\)/);

  assert.equal(await node.deployToken({ decimals: 6, symbol: 'USDT' }), usdt);
  await node.transfer(usdt, payee, 4_000_000n);
  await node.transfer(usdc, other, 2_000_000n);
  now += 59_999;
  assert.deepEqual(await amounts(), [[], [2_000_000n]], 'USDT is not counted while disabled');
  now += 1;
  assert.deepEqual(await amounts(), [[4_000_000n], [2_000_000n]]);
  assert.equal(watcher.status().tokens?.USDT?.status, 'ENABLED');
});
