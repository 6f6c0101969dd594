import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import { ChainSourceError } from '../../../src/providers/crypto-onchain/chain-http.ts';
import { EvmRpcClient, TRANSFER_TOPIC } from '../../../src/providers/crypto-onchain/evm-rpc.ts';
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
  const watcher = new EvmWatcher(new EvmRpcClient({ url }), (await chainScanStore(t)).store, {
    network: 'base',
    chainId: 1337,
    tokens: { USDC: TOKEN },
    decimalsOf: () => 6,
  });
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
  const watcher = new EvmWatcher(new EvmRpcClient({ url }), (await chainScanStore(t)).store, {
    network: 'base',
    chainId: 1337,
    tokens: { USDC: TOKEN },
    decimalsOf: () => 6,
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
  const watcher = new EvmWatcher(new EvmRpcClient({ url }), (await chainScanStore(t)).store, {
    network: 'base',
    chainId: 1337,
    tokens: { USDC: TOKEN },
    decimalsOf: () => 6,
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
