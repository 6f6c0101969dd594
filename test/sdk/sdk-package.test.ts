import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { signatureHeader } from '../../src/domain/webhooks/signing.ts';
import { ensureSdkBuilt } from '../support/sdk-dist.ts';
import { buildTestApp } from '../support/test-app.ts';

/**
 * @cobro/sdk as an application gets it: `npm pack` of packages/sdk, unpacked into a project in
 * a temporary directory whose node_modules holds that package and the packages its
 * `dependencies` name (and theirs), copied from this repository's install, and nothing else (no
 * node_modules above it). A script there, run by this Node (20), creates and reads a checkout
 * preference on a running Cobro and verifies a signed delivery.
 */

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SDK = join(ROOT, 'packages', 'sdk');

type Manifest = { name: string; dependencies?: Record<string, string>; engines?: Record<string, string> };
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** Where `name` is installed, as Node would find it from `from` (a package's own node_modules first). */
function installed(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) {
      return candidate;
    }
    if (dir === dirname(dir)) {
      throw new Error(`${name} is not installed (needed from ${from})`);
    }
  }
}

/** Copies `name` and what it depends on, flat, into `modules`. */
function copyWithDependencies(name: string, from: string, modules: string, copied: Set<string>): void {
  if (copied.has(name)) {
    return;
  }
  copied.add(name);
  const source = installed(name, from);
  cpSync(source, join(modules, name), { recursive: true, dereference: true });
  for (const dependency of Object.keys(manifest(source).dependencies ?? {})) {
    copyWithDependencies(dependency, source, modules, copied);
  }
}

const APP = `
import { createCobroClient, verifyWebhook, WebhookVerificationError } from '@cobro/sdk';

const input = JSON.parse(process.env.SDK_INPUT);
const cobro = createCobroClient({ baseUrl: input.baseUrl, apiKey: input.apiKey, apiSecret: input.apiSecret });
const created = await cobro.POST('/v1/checkout_preferences', {
  body: { type: 'PAYMENT', origin: 'API', amount: 16.9, currency: 'USD', title: 'Packed', external_id: 'packed-1' },
});
const read = await cobro.GET('/v1/checkout_preferences/{id}', { params: { path: { id: created.data.id } } });
const missing = await cobro.GET('/v1/payment_orders/{id}', { params: { path: { id: 'nosuchorder' } } });
const event = verifyWebhook(input.webhook.body, input.webhook.headers, input.webhook.secret);
let forged = null;
try {
  verifyWebhook(input.webhook.body + ' ', input.webhook.headers, input.webhook.secret);
} catch (error) {
  forged = error instanceof WebhookVerificationError ? error.name : String(error);
}
let other = 'resolved';
try {
  await import('fastify');
} catch (error) {
  other = error.code;
}
process.stdout.write(JSON.stringify({
  node: process.versions.node,
  created: created.response.status,
  readBack: read.data.external_id === 'packed-1' && read.data.id === created.data.id,
  missing: missing.error.code,
  event: event.event_type,
  forged,
  other,
}));
`;

test('the packed package runs on Node 20 with its own dependencies only', async (t) => {
  ensureSdkBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'cobro-sdk-app-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: SDK,
      encoding: 'utf8',
    }),
  ) as { filename: string; files: { path: string }[] }[];
  assert.ok(packed);
  const files = packed.files.map((f) => f.path).sort();
  assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts'), files.join(' '));
  assert.deepEqual(
    files.filter((f) => !f.startsWith('dist/')),
    ['README.md', 'package.json'],
    'only the build, the README and the manifest are published',
  );

  const modules = join(dir, 'app', 'node_modules');
  mkdirSync(join(modules, '@cobro'), { recursive: true });
  execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', join(modules, '@cobro')]);
  renameSync(join(modules, '@cobro', 'package'), join(modules, '@cobro', 'sdk'));
  const sdk = manifest(join(modules, '@cobro', 'sdk'));
  assert.deepEqual(Object.keys(sdk.dependencies ?? {}).sort(), ['openapi-fetch', 'standardwebhooks']);
  assert.equal(sdk.engines?.node, '>=20');

  // What the compiled package imports: its own files, and the dependencies it declares.
  const dist = join(modules, '@cobro', 'sdk', 'dist');
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(dist, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      assert.ok(
        specifier?.startsWith('./') || Object.hasOwn(sdk.dependencies ?? {}, specifier ?? ''),
        `dist/${file} imports ${specifier}, which the package does not declare`,
      );
    }
  }

  const copied = new Set<string>();
  for (const dependency of Object.keys(sdk.dependencies ?? {})) {
    copyWithDependencies(dependency, SDK, modules, copied);
  }
  writeFileSync(join(dir, 'app', 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
  writeFileSync(join(dir, 'app', 'main.js'), APP);

  const ctx = await buildTestApp(t);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const settings = await ctx.app.inject({
    method: 'GET',
    url: '/v1/webhook_settings',
    headers: ctx.merchant.authHeaders,
  });
  const secret = String(settings.json().signing_secret);
  const body = JSON.stringify({
    id: 'evt_packed',
    event_type: 'PAYMENT_ORDER.CLOSED',
    entity_type: 'PAYMENT_ORDER',
    entity_id: 'order_1',
    status: 'CLOSED',
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const input = {
    baseUrl: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`,
    apiKey: ctx.merchant.apiKey,
    apiSecret: ctx.merchant.apiSecret,
    webhook: {
      body,
      secret,
      headers: {
        'webhook-id': 'evt_packed',
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader([secret], 'evt_packed', timestamp, body),
      },
    },
  };
  // Not spawnSync: the server answering the script runs in this process.
  const run = await execFileAsync(process.execPath, ['main.js'], {
    cwd: join(dir, 'app'),
    env: { PATH: process.env.PATH ?? '', SDK_INPUT: JSON.stringify(input) },
    encoding: 'utf8',
  }).catch((error: { stdout?: string; stderr?: string; message: string }) =>
    assert.fail(`the script failed: ${error.message}\n${error.stderr ?? ''}`),
  );
  const out = JSON.parse(String(run.stdout));
  assert.match(out.node, /^20\./);
  assert.deepEqual(
    { ...out, node: undefined },
    {
      node: undefined,
      created: 201,
      readBack: true,
      missing: 'NOT_FOUND',
      event: 'PAYMENT_ORDER.CLOSED',
      forged: 'WebhookVerificationError',
      other: 'ERR_MODULE_NOT_FOUND',
    },
  );
});
