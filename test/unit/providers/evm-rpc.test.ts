import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import { ChainSourceError } from '../../../src/providers/crypto-onchain/chain-http.ts';
import { ContractCallError, EvmRpcClient, TRANSFER_TOPIC } from '../../../src/providers/crypto-onchain/evm-rpc.ts';
import type { EvmWatcherOptions } from '../../../src/providers/crypto-onchain/evm-watcher.ts';
import { EvmWatcher } from '../../../src/providers/crypto-onchain/evm-watcher.ts';
import { chainScanStore } from '../../support/chain-scan-store.ts';

// An EVM node is the outside world even when the operator chose it: whatever it answers —
// errors, garbage, answers too large, logs outside the filter, a tip that goes backwards — a
// call fails with a ChainSourceError, and nothing it says makes a payment appear. The answers
// here follow the JSON-RPC shapes of https://ethereum.org/en/developers/docs/apis/json-rpc/.

const TOKEN = '0x1111111111111111111111111111111111111111';
const PAYEE = '0x2222222222222222222222222222222222222222';
const HASH = `0x${'ab'.repeat(32)}`;

type Answer = { status?: number; body: string };

async function fakeNode(t: TestContext, answer: (method: string, params: unknown[], id: number) => Answer) {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString('utf8');
    });
    req.on('end', () => {
      const call = JSON.parse(text) as { method: string; params: unknown[]; id: number };
      const a = answer(call.method, call.params, call.id);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const ok = (id: number, result: unknown): Answer => ({ body: JSON.stringify({ jsonrpc: '2.0', id, result }) });

/** A watcher of the fake node's USDC on 'base' (chain 1337, 6 decimals), on a store of its own. */
async function usdcWatcher(t: TestContext, url: string, options: Partial<EvmWatcherOptions> = {}): Promise<EvmWatcher> {
  return new EvmWatcher(new EvmRpcClient({ url }), (await chainScanStore(t)).store, {
    network: 'base',
    chainId: 1337,
    tokens: { USDC: TOKEN },
    decimalsOf: () => 6,
    ...options,
  });
}

function transferLog(overrides: Record<string, unknown> = {}) {
  return {
    address: TOKEN,
    topics: [TRANSFER_TOPIC, `0x${'0'.repeat(24)}${'3'.repeat(40)}`, `0x${'0'.repeat(24)}${PAYEE.slice(2)}`],
    data: `0x${5_000_000n.toString(16).padStart(64, '0')}`,
    transactionHash: HASH,
    logIndex: '0x0',
    blockNumber: '0x10',
    blockHash: HASH,
    removed: false,
    ...overrides,
  };
}

test('a Transfer log is read with its recipient, amount and block', async (t) => {
  const url = await fakeNode(t, (_m, _p, id) => ok(id, [transferLog()]));
  const transfers = await new EvmRpcClient({ url }).transfers([TOKEN], [PAYEE], 0x10, 0x10);
  assert.deepEqual(transfers, [
    {
      contract: TOKEN,
      to: PAYEE,
      amount: 5_000_000n,
      txHash: HASH,
      logIndex: 0,
      blockNumber: 16,
      blockHash: HASH,
    },
  ]);
});

test('a node that errs, answers garbage, too much, or logs outside the filter fails the call', async (t) => {
  const cases: [string, (id: number) => Answer, RegExp][] = [
    ['HTTP 500', () => ({ status: 500, body: 'oops' }), /HTTP 500/],
    [
      'a JSON-RPC error',
      (id) => ({ body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32005, message: 'limit exceeded' } }) }),
      /limit exceeded/,
    ],
    ['not JSON', () => ({ body: '<html>' }), /not JSON/],
    ['an answer to another call', () => ok(999, []), /not a JSON-RPC answer/],
    ['a huge answer', (id) => ok(id, [{ junk: 'x'.repeat(300_000) }]), /byte limit/],
    ['not a list', (id) => ok(id, { logs: [] }), /did not answer a list/],
    ['a malformed log', (id) => ok(id, [transferLog({ data: '0x12' })]), /not an ERC-20 Transfer/],
    ['another contract', (id) => ok(id, [transferLog({ address: PAYEE })]), /outside the filter/],
    ['a block outside the range', (id) => ok(id, [transferLog({ blockNumber: '0x99' })]), /outside the filter/],
    ['a removed log', (id) => ok(id, [transferLog({ removed: true })]), /removed log/],
  ];
  for (const [name, answer, message] of cases) {
    const url = await fakeNode(t, (_m, _p, id) => answer(id));
    await assert.rejects(
      new EvmRpcClient({ url, maxResponseBytes: 200_000 }).transfers([TOKEN], [PAYEE], 0x10, 0x10),
      (error: Error) => error instanceof ChainSourceError && message.test(error.message),
      name,
    );
  }
});

test('a node that does not answer within the timeout fails the call', async (t) => {
  const server = http.createServer(() => {
    // never answers
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await assert.rejects(new EvmRpcClient({ url, timeoutMs: 200 }).blockNumber(), ChainSourceError);
});

test('a tip that goes backwards is refused until the node is past it again, and shows in the status', async (t) => {
  let tip = 100;
  const url = await fakeNode(t, (method, params, id) => {
    switch (method) {
      case 'eth_chainId':
        return ok(id, '0x539');
      case 'eth_call':
        return ok(id, `0x${'6'.padStart(64, '0')}`);
      case 'eth_blockNumber':
        return ok(id, `0x${tip.toString(16)}`);
      case 'eth_getBlockByNumber': {
        const n = Number.parseInt(String(params[0]), 16);
        return ok(id, { number: params[0], hash: `0x${n.toString(16).padStart(64, '0')}` });
      }
      default:
        return ok(id, []);
    }
  });
  const watcher = await usdcWatcher(t, url);
  const watch = [{ address: PAYEE, currency: 'USDC' }];
  await watcher.refresh();
  assert.deepEqual(await watcher.received('base', watch), new Map([[PAYEE, []]]));
  assert.equal(watcher.status().tipHeight, 100);
  assert.equal(watcher.status().lagBlocks, 0);

  tip = 90;
  await watcher.refresh();
  await assert.rejects(watcher.received('base', watch), /tip went backwards, from 100 to 90/);
  assert.match(watcher.status().lastError ?? '', /backwards/);

  tip = 101;
  await watcher.refresh();
  await watcher.received('base', watch);
  assert.equal(watcher.status().lastError, null);
  assert.equal(watcher.status().tipHeight, 101);
});

test('a failing node is left alone for the backoff before it is asked again', async (t) => {
  let calls = 0;
  let down = true;
  const url = await fakeNode(t, (method, params, id) => {
    calls++;
    if (down) {
      return { status: 503, body: 'overloaded' };
    }
    const answers: Record<string, unknown> = {
      eth_getBlockByNumber: { number: params[0], hash: HASH },
      eth_call: `0x${'6'.padStart(64, '0')}`,
      eth_chainId: '0x539',
      eth_blockNumber: '0x5',
      eth_getLogs: [],
    };
    return ok(id, answers[method]);
  });
  let now = 0;
  const watcher = await usdcWatcher(t, url, {
    now: () => now,
    backoffMs: (failures) => 1_000 * 2 ** (failures - 1),
  });
  const watch = [{ address: PAYEE, currency: 'USDC' }];
  await watcher.refresh();
  await assert.rejects(watcher.received('base', watch), /HTTP 503/);
  assert.equal(calls, 1);
  down = false;
  now = 999;
  await watcher.refresh();
  await assert.rejects(watcher.received('base', watch), /HTTP 503/, 'still backing off: the node is not asked');
  assert.equal(calls, 1);
  now = 1_000;
  await watcher.refresh();
  await watcher.received('base', watch);
  assert.ok(calls > 1);
  assert.equal(watcher.status().lastError, null);
});

test('a node that refuses wide eth_getLogs ranges is asked for narrower ones until it answers, and every block is covered once', async (t) => {
  const asked: [number, number][] = [];
  const url = await fakeNode(t, (method, params, id) => {
    const answers: Record<string, unknown> = {
      eth_chainId: '0x539',
      eth_call: `0x${'6'.padStart(64, '0')}`,
      eth_blockNumber: `0x${(100).toString(16)}`,
    };
    if (method === 'eth_getBlockByNumber') {
      return ok(id, {
        number: params[0],
        hash: `0x${Number.parseInt(String(params[0]), 16).toString(16).padStart(64, '0')}`,
      });
    }
    if (method === 'eth_getLogs') {
      const filter = params[0] as { fromBlock: string; toBlock: string };
      const [from, to] = [Number.parseInt(filter.fromBlock, 16), Number.parseInt(filter.toBlock, 16)];
      if (to - from + 1 > 10) {
        return {
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            error: { code: -32600, message: 'block range is too wide (max 10)' },
          }),
        };
      }
      asked.push([from, to]);
      return ok(id, []);
    }
    return ok(id, answers[method]);
  });
  const watcher = await usdcWatcher(t, url, {
    initialLookback: 100,
    maxRangesPerTick: 100,
  });
  await watcher.refresh();
  await watcher.received('base', [{ address: PAYEE, currency: 'USDC' }]);
  assert.equal(watcher.status().lagBlocks, 0);
  assert.equal(watcher.status().lastError, null);
  assert.ok(asked.every(([from, to]) => to - from + 1 <= 10));
  const covered = asked.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));
  assert.deepEqual(
    covered,
    Array.from({ length: 100 }, (_, i) => i + 1),
  );
});

const SIX = `0x${'6'.padStart(64, '0')}`;
const rpcError = (id: number, code: number, message: string): Answer => ({
  body: JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }),
});

test("decimals() that reverts, returns nothing or no number is the contract's failure; a node that errs or answers no data is the node's", async (t) => {
  const contractFailures: [string, (id: number) => Answer, RegExp][] = [
    [
      "ganache's revert",
      (id) => rpcError(id, -32000, 'VM Exception while processing transaction: revert'),
      /did not answer decimals\(\): the call reverted/,
    ],
    ["geth's revert with data", (id) => rpcError(id, 3, 'execution reverted: nope'), /the call reverted/],
    ['no code at the address', (id) => ok(id, '0x'), /returned nothing/],
    ['a short answer', (id) => ok(id, '0x1234'), /did not answer decimals\(\) with a number/],
    ['an answer over 255', (id) => ok(id, `0x${(300).toString(16).padStart(64, '0')}`), /answered 300/],
  ];
  const nodeFailures: [string, (id: number) => Answer, RegExp][] = [
    ['HTTP 503', () => ({ status: 503, body: 'overloaded' }), /HTTP 503/],
    ['a rate limit', (id) => rpcError(id, -32005, 'limit exceeded'), /limit exceeded/],
    ['no data at all', (id) => ok(id, null), /answered no return data/],
  ];
  for (const [name, answer, message] of contractFailures) {
    const url = await fakeNode(t, (_m, _p, id) => answer(id));
    await assert.rejects(
      new EvmRpcClient({ url }).decimals(TOKEN),
      (error: Error) => error instanceof ContractCallError && error.contract === TOKEN && message.test(error.message),
      name,
    );
  }
  for (const [name, answer, message] of nodeFailures) {
    const url = await fakeNode(t, (_m, _p, id) => answer(id));
    await assert.rejects(
      new EvmRpcClient({ url }).decimals(TOKEN),
      (error: Error) =>
        error instanceof ChainSourceError && !(error instanceof ContractCallError) && message.test(error.message),
      name,
    );
  }
});

/** A healthy node at tip 5 with no logs; `call` answers each eth_call by the contract asked. */
async function tokensNode(t: TestContext, call: (contract: string, id: number) => Answer) {
  const calls: string[] = [];
  const url = await fakeNode(t, (method, params, id) => {
    if (method === 'eth_call') {
      const contract = (params[0] as { to: string }).to;
      calls.push(contract);
      return call(contract, id);
    }
    const answers: Record<string, unknown> = {
      eth_getBlockByNumber: { number: params[0], hash: HASH },
      eth_chainId: '0x539',
      eth_blockNumber: '0x5',
      eth_getLogs: [],
    };
    return ok(id, answers[method]);
  });
  return { url, calls };
}

test('a token whose decimals() reverts is DISABLED while the node and the other token stay fine, and is checked again on the backoff until it answers', async (t) => {
  const usdt = '0x3333333333333333333333333333333333333333';
  let reverting = true;
  const { url, calls } = await tokensNode(t, (contract, id) =>
    contract === usdt && reverting ? rpcError(id, -32000, 'execution reverted') : ok(id, SIX),
  );
  let now = 0;
  const changes: [string, string][] = [];
  const watcher = await usdcWatcher(t, url, {
    network: 'ethereum',
    tokens: { USDC: TOKEN, USDT: usdt },
    now: () => now,
    backoffMs: (failures) => 1_000 * 2 ** (failures - 1),
    onTokenChange: (currency, token) => changes.push([currency, token.status]),
  });
  const watches = [
    { address: PAYEE, currency: 'USDC' },
    { address: PAYEE, currency: 'USDT' },
  ];
  await watcher.refresh();
  await watcher.received('ethereum', watches);
  assert.equal(watcher.status().lastError, null, 'the node is fine');
  assert.deepEqual(watcher.status().tokens?.USDT, {
    contract: usdt,
    status: 'DISABLED',
    reason: `USDT at ${usdt} did not answer decimals(): the call reverted (execution reverted)`,
  });
  assert.equal(watcher.status().tokens?.USDC?.status, 'ENABLED');
  assert.equal(watcher.accepts('USDT'), false);
  assert.equal(watcher.accepts('USDC'), true);

  // Still reverting at the first retry: disabled on, and left alone twice as long.
  now = 1_000;
  await watcher.refresh();
  assert.equal(calls.filter((c) => c === usdt).length, 2);
  reverting = false;
  now = 2_999;
  await watcher.refresh();
  assert.equal(calls.filter((c) => c === usdt).length, 2, 'not asked again before its backoff is over');
  assert.equal(watcher.accepts('USDT'), false);
  now = 3_000;
  await watcher.refresh();
  await watcher.received('ethereum', watches);
  assert.deepEqual(watcher.status().tokens?.USDT, { contract: usdt, status: 'ENABLED', reason: null });
  assert.equal(watcher.accepts('USDT'), true);
  assert.deepEqual(changes, [
    ['USDT', 'DISABLED'],
    ['USDT', 'ENABLED'],
  ]);
  assert.equal(calls.filter((c) => c === TOKEN).length, 1, 'an enabled token is checked once');
});

test("a node that fails a token's decimals() call fails the whole source, as any of its failures, and disables no token", async (t) => {
  let down = true;
  const { url } = await tokensNode(t, (_contract, id) => (down ? { status: 503, body: 'overloaded' } : ok(id, SIX)));
  const watcher = await usdcWatcher(t, url);
  const watch = [{ address: PAYEE, currency: 'USDC' }];
  await watcher.refresh();
  await assert.rejects(watcher.received('base', watch), /eth_call answered HTTP 503/);
  assert.equal(watcher.status().errors, 1);
  assert.deepEqual(watcher.status().tokens?.USDC, { contract: TOKEN, status: 'UNVERIFIED', reason: null });
  assert.equal(watcher.accepts('USDC'), true, 'nothing is known against the token');
  down = false;
  await watcher.refresh();
  await watcher.received('base', watch);
  assert.equal(watcher.status().lastError, null);
  assert.equal(watcher.status().tokens?.USDC?.status, 'ENABLED');
});
