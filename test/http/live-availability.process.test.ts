import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BTC_TEST_ZPUB } from '../../src/providers/crypto-onchain/derivation.ts';
import { cobroArgs } from '../support/dist.ts';
import { startFakeEsplora } from '../support/fake-esplora.ts';
import { startCobroProcess } from '../support/processes.ts';

// Live mode offers only what can settle, as operators run it: the built server from dist/ with
// a Bitcoin source configured, a merchant and its live key made with the command line, and its
// payment settings set with the command line while the server runs. Each piece set shows at once
// in what the server answers a live key.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

test('a production server offers a live key nothing until the command line sets up each piece, then exactly that', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-live-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const esplora = await startFakeEsplora();
  t.after(() => esplora.close());
  const env = { DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}`, BITCOIN_ESPLORA_URL: esplora.url };
  const server = await startCobroProcess(t, env);
  const cli = async (...args: string[]) =>
    (
      await run(process.execPath, cobroArgs('cobro', ...args), {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      })
    ).stdout;

  const merchant = JSON.parse(await cli('merchant', 'create', '--name', 'Loja Aurora', '--json')) as {
    merchant_id: string;
    api_key: string;
    api_secret: string;
  };
  const live = JSON.parse(await cli('keys', 'create', '--merchant', merchant.merchant_id, '--mode', 'live', '--json'));
  const statuses = async (keys: { api_key: string; api_secret: string }) => {
    const res = await fetch(`http://127.0.0.1:${server.port}/v1/payment_methods`, {
      headers: { 'x-api-key': keys.api_key, 'x-api-secret': keys.api_secret },
    });
    assert.equal(res.status, 200);
    const methods = ((await res.json()) as { payment_methods: { type: string; currency: string; status: string }[] })
      .payment_methods;
    const byType = new Map<string, Set<string>>();
    for (const m of methods) {
      const kind = m.type === 'CRYPTO_ONCHAIN' ? `${m.type} ${m.currency}` : m.type;
      byType.set(kind, (byType.get(kind) ?? new Set()).add(m.status));
    }
    return Object.fromEntries([...byType].map(([kind, seen]) => [kind, [...seen].sort().join('/')]));
  };
  const none = {
    CARD: 'DISABLED',
    BANK_TRANSFER: 'DISABLED',
    CASH: 'DISABLED',
    PIX: 'DISABLED',
    'CRYPTO_ONCHAIN USDT': 'DISABLED',
    'CRYPTO_ONCHAIN USDC': 'DISABLED',
    'CRYPTO_ONCHAIN BTC': 'DISABLED',
  };

  assert.deepEqual(await statuses(live), none);
  const set = (...flags: string[]) => cli('settings', 'set', '--merchant', merchant.merchant_id, ...flags);
  await set('--pix-key', 'ana@example.com', '--pix-name', 'Loja Aurora', '--pix-city', 'Sao Paulo');
  assert.deepEqual(await statuses(live), { ...none, PIX: 'ENABLED' });
  await set(
    '--bank-name',
    'Banco Exemplo',
    '--bank-holder',
    'Loja Aurora',
    '--bank-account',
    '12345-6',
    '--bank-routing',
    '0001',
  );
  assert.deepEqual(await statuses(live), { ...none, PIX: 'ENABLED', BANK_TRANSFER: 'ENABLED' });
  await set('--btc-xpub', BTC_TEST_ZPUB, '--btc-network', 'mainnet');
  // Bitcoin is watched and has its key; the stablecoins' networks have no source here.
  assert.deepEqual(await statuses(live), {
    ...none,
    PIX: 'ENABLED',
    BANK_TRANSFER: 'ENABLED',
    'CRYPTO_ONCHAIN BTC': 'ENABLED',
  });

  // The merchant's test key is offered everything, whatever is set up.
  const testKey = await statuses(merchant);
  assert.ok(
    Object.values(testKey).every((s) => s === 'ENABLED'),
    JSON.stringify(testKey),
  );
});
