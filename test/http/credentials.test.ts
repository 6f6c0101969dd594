import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { mock, test } from 'node:test';
import { sql } from 'kysely';
import { createPaymentLink, createPreference, paymentBody, subscriptionPlanBody } from '../support/builders.ts';
import { runAuthTests } from '../support/run-auth-tests.ts';
import type { TestApp, TestMerchant } from '../support/test-app.ts';
import { BANK_DETAILS, describeBackends, testMerchant } from '../support/test-app.ts';
import { assertError, get, JSON_UTF8, sharedBuild } from './helpers.ts';

/** R14: credentials and secrets. */

const UNAUTHORIZED =
  '{"messages":["invalid or missing credentials: send x-api-key and x-api-secret"],"code":"UNAUTHORIZED"}';

/** A second key pair of the same merchant, in the other mode (with bank details, so live mode can take payments). */
async function otherMode(ctx: TestApp, merchant: TestMerchant): Promise<TestMerchant> {
  const mode = merchant.mode === 'test' ? 'live' : 'test';
  await ctx.cobro.services.merchants.updateSettings(merchant.id, { bank: BANK_DETAILS });
  return testMerchant(await ctx.cobro.services.merchants.createKeyPair(merchant.id, mode), mode);
}

/** Every row of every table, as text, for a search of the PostgreSQL database. */
async function dumpPostgres(ctx: TestApp): Promise<string> {
  const db = ctx.cobro.database.db;
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = current_schema()`.execute(db);
  let dump = '';
  for (const { table_name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table_name)}`.execute(db);
    dump += JSON.stringify(rows.rows, (_key, value: unknown) => {
      if (typeof value === 'bigint') {
        return value.toString();
      }
      return value;
    });
  }
  return dump;
}

describeBackends('credentials (R14)', (build) => {
  test('authenticates only complete, current key pairs', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers every /v1 route without credentials with the same 401 body', async () => {
      const { app, merchant } = await fresh();
      const preference = await createPreference(app, merchant);
      const link = await createPaymentLink(app, merchant);
      const routes: ['GET' | 'POST', string][] = [
        ['GET', '/v1/checkout_preferences'],
        ['POST', '/v1/checkout_preferences'],
        ['GET', `/v1/checkout_preferences/${preference.id}`],
        ['GET', '/v1/payment_links'],
        ['POST', '/v1/payment_links'],
        ['GET', `/v1/payment_links/${link.id}`],
        ['POST', `/v1/payment_links/${link.id}/archive`],
        ['GET', '/v1/payment_methods'],
        ['GET', '/v1/currencies'],
      ];
      for (const [method, url] of routes) {
        for (const headers of [{}, { 'x-api-key': merchant.apiKey, 'x-api-secret': 'cs_test_wrong' }]) {
          const res = await app.inject({
            method,
            url,
            headers,
            ...(method === 'POST' ? { payload: paymentBody() } : {}),
          });
          assert.equal(res.statusCode, 401, `${method} ${url}: ${res.body}`);
          assert.equal(res.headers['content-type'], JSON_UTF8);
          assert.equal(res.body, UNAUTHORIZED, `${method} ${url}`);
        }
      }
      // Nothing was archived by the refused calls.
      assert.equal((await get(app, merchant, `/v1/payment_links/${link.id}`)).json().status, 'ACTIVE');
    });

    await t.test(
      'answers byte-identical 401s for an unknown key, a wrong secret, a missing header and a revoked key',
      async () => {
        const { app, merchant, cobro, createMerchant } = await fresh();
        const revoked = await createMerchant();
        await cobro.services.merchants.revokeKey(revoked.apiKey);
        const attempts: Record<string, string>[] = [
          { 'x-api-key': 'ck_test_unknownunknownunknown', 'x-api-secret': merchant.apiSecret },
          {
            'x-api-key': merchant.apiKey,
            'x-api-secret': `${merchant.apiSecret.slice(0, -1)}${merchant.apiSecret.endsWith('x') ? 'y' : 'x'}`,
          },
          { 'x-api-key': merchant.apiKey },
          revoked.authHeaders,
        ];
        const answers = [];
        for (const headers of attempts) {
          const res = await app.inject({ method: 'GET', url: '/v1/currencies', headers });
          const { 'x-request-id': _id, date: _date, ...rest } = res.headers;
          answers.push({ status: res.statusCode, body: res.body, headers: rest });
        }
        for (const answer of answers.slice(1)) {
          assert.deepEqual(answer, answers[0]);
        }
        assert.equal(answers[0]?.body, UNAUTHORIZED);
      },
    );

    await t.test('refuses malformed and misplaced credentials with 401', async () => {
      const { app, merchant } = await fresh();
      const cases: [string, Record<string, string | string[]>][] = [
        ['a non-ASCII secret', { 'x-api-key': merchant.apiKey, 'x-api-secret': `${merchant.apiSecret}ñ` }],
        ['a non-ASCII key', { 'x-api-key': `${merchant.apiKey}é`, 'x-api-secret': merchant.apiSecret }],
        ['the key in capitals', { 'x-api-key': merchant.apiKey.toUpperCase(), 'x-api-secret': merchant.apiSecret }],
        ['the secret in capitals', { 'x-api-key': merchant.apiKey, 'x-api-secret': merchant.apiSecret.toUpperCase() }],
        ['key and secret swapped', { 'x-api-key': merchant.apiSecret, 'x-api-secret': merchant.apiKey }],
        ['an oversized key', { 'x-api-key': 'k'.repeat(10_000), 'x-api-secret': merchant.apiSecret }],
        [
          'the key header twice',
          { 'x-api-key': [merchant.apiKey, merchant.apiKey], 'x-api-secret': merchant.apiSecret },
        ],
        [
          'HTTP Basic credentials',
          { authorization: `Basic ${Buffer.from(`${merchant.apiKey}:${merchant.apiSecret}`).toString('base64')}` },
        ],
        [
          'a bearer secret with the key',
          { 'x-api-key': merchant.apiKey, authorization: `Bearer ${merchant.apiSecret}` },
        ],
        ['credentials in a cookie', { cookie: `x-api-key=${merchant.apiKey}; x-api-secret=${merchant.apiSecret}` }],
      ];
      for (const [name, headers] of cases) {
        const res = await app.inject({ method: 'GET', url: '/v1/currencies', headers });
        assert.equal(res.statusCode, 401, `${name}: ${res.body}`);
        assert.equal(res.body, UNAUTHORIZED, name);
      }
      const inBody = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        payload: paymentBody({ 'x-api-key': merchant.apiKey, 'x-api-secret': merchant.apiSecret }),
      });
      assert.equal(inBody.statusCode, 401, inBody.body);
    });

    await t.test("refuses a merchant's test key with the secret of its own live key", async () => {
      const ctx = await fresh();
      const live = await otherMode(ctx, ctx.merchant);
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/v1/currencies',
        headers: { 'x-api-key': ctx.merchant.apiKey, 'x-api-secret': live.apiSecret },
      });
      assertError(res, 401, 'UNAUTHORIZED');
      const ok = await ctx.app.inject({ method: 'GET', url: '/v1/currencies', headers: live.authHeaders });
      assert.equal(ok.statusCode, 200, ok.body);
    });

    await t.test('keeps the other keys of a merchant working when one is revoked', async () => {
      const ctx = await fresh();
      const second = await ctx.cobro.services.merchants.createKeyPair(ctx.merchant.id, 'test');
      const created = await createPreference(ctx.app, ctx.merchant);
      await ctx.cobro.services.merchants.revokeKey(ctx.merchant.apiKey);
      const refused = await get(ctx.app, ctx.merchant, '/v1/currencies');
      assertError(refused, 401, 'UNAUTHORIZED');
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/v1/checkout_preferences/${created.id}`,
        headers: { 'x-api-key': second.apiKey, 'x-api-secret': second.apiSecret },
      });
      assert.equal(res.statusCode, 200, res.body);
    });

    await t.test('stores each secret as a fixed-length digest, never as the secret', async () => {
      const ctx = await fresh();
      const issued = [ctx.merchant, await ctx.createMerchant(), await ctx.createMerchant('live')];
      const rows = await ctx.cobro.database.db
        .selectFrom('api_keys')
        .select(['key', 'secret_hash'])
        .where(
          'key',
          'in',
          issued.map((m) => m.apiKey),
        )
        .execute();
      assert.equal(rows.length, issued.length);
      for (const row of rows) {
        const secret = issued.find((m) => m.apiKey === row.key)?.apiSecret ?? '';
        assert.match(row.secret_hash, /^[0-9a-f]{64}$/, 'not a 256-bit hex digest');
        assert.equal(row.secret_hash.includes(secret.slice(8)), false);
      }
      assert.equal(new Set(rows.map((r) => r.secret_hash)).size, rows.length, 'two secrets share a digest');
    });

    await t.test(
      'compares the presented secret with crypto.timingSafeEqual on equal-length digests, known key or not',
      async (t) => {
        const ctx = await fresh();
        const spy = mock.method(crypto, 'timingSafeEqual');
        syncBuiltinESMExports();
        t.after(() => {
          spy.mock.restore();
          syncBuiltinESMExports();
        });
        const { merchants } = ctx.cobro.services;
        const caller = await merchants.authenticate(ctx.merchant.apiKey, ctx.merchant.apiSecret);
        assert.deepEqual(caller, { merchantId: ctx.merchant.id, mode: 'test', key: ctx.merchant.apiKey });
        await assert.rejects(merchants.authenticate(ctx.merchant.apiKey, `${ctx.merchant.apiSecret}x`));
        await assert.rejects(merchants.authenticate('ck_test_doesnotexist00000000', ctx.merchant.apiSecret));
        assert.equal(spy.mock.callCount(), 3, 'timingSafeEqual was not used for every comparison');
        for (const call of spy.mock.calls) {
          const [a, b] = call.arguments as unknown as [Buffer, Buffer];
          assert.ok(Buffer.isBuffer(a) && Buffer.isBuffer(b));
          assert.equal(a.length, 32);
          assert.equal(b.length, 32);
        }
      },
    );
  });

  runAuthTests(sharedBuild(build), (ctx) => ({
    method: 'GET',
    url: '/v1/checkout_preferences',
    headers: ctx.merchant.authHeaders,
  }));

  test('never writes an issued secret to the database files or the logs', async (t) => {
    const lines: string[] = [];
    const ctx = await build(t, { logStream: { write: (line: string) => void lines.push(line) }, logLevel: 'debug' });
    const { app, cobro } = ctx;
    const merchants = [
      ctx.merchant,
      await ctx.createMerchant(),
      await ctx.createMerchant('live', { bank: BANK_DETAILS }),
    ];
    merchants.push(await otherMode(ctx, ctx.merchant));
    const revoked = await ctx.createMerchant();
    merchants.push(revoked);
    const bootstrapSecret = `cs_test_${crypto.randomBytes(24).toString('hex')}`;
    await cobro.services.merchants.bootstrap(`ck_test_boot${crypto.randomBytes(8).toString('hex')}`, bootstrapSecret);

    for (const m of merchants) {
      const created = await createPreference(app, m, { external_id: 'scan' });
      await app.inject({
        method: 'POST',
        url: '/v1/payment_links',
        headers: { ...m.authHeaders, 'idempotency-key': `key-${m.apiKey}` },
        payload: subscriptionPlanBody(),
      });
      await get(app, m, `/v1/checkout_preferences/${created.id}`);
      await get(app, m, '/v1/payment_methods');
      // Failures must not log what was presented either.
      await app.inject({
        method: 'GET',
        url: '/v1/currencies',
        headers: { 'x-api-key': m.apiKey, 'x-api-secret': `${m.apiSecret}x` },
      });
      await app.inject({
        method: 'GET',
        url: '/v1/currencies',
        headers: { 'x-api-key': m.apiSecret, 'x-api-secret': m.apiSecret },
      });
      await app.inject({
        method: 'GET',
        url: `/v1/currencies?x-api-key=${m.apiKey}&x-api-secret=${m.apiSecret}`,
      });
      await app.inject({ method: 'GET', url: '/v1/currencies', headers: { authorization: `Bearer ${m.apiSecret}` } });
      await app.inject({ method: 'GET', url: `/health?secret=${m.apiSecret}` });
      await app.inject({ method: 'GET', url: `/nothing?secret=${m.apiSecret}` });
      await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: { ...m.authHeaders, 'content-type': 'application/json' },
        payload: '{"type":',
      });
    }
    await cobro.services.merchants.revokeKey(revoked.apiKey);
    await get(app, revoked, '/v1/currencies');

    const secrets = [...merchants.map((m) => m.apiSecret), bootstrapSecret];
    assert.ok(lines.length > 20, `expected request logs at debug level, got ${lines.length} lines`);
    const logs = lines.join('');
    assert.match(logs, /"path":"\/v1\/currencies"/);
    for (const secret of secrets) {
      assert.equal(logs.includes(secret), false, `secret ${secret.slice(0, 12)}… found in the logs`);
    }

    if (ctx.sqlitePath) {
      const files = [ctx.sqlitePath, `${ctx.sqlitePath}-wal`, `${ctx.sqlitePath}-shm`].filter((f) => existsSync(f));
      assert.ok(files.length >= 2, `database files: ${files.join(', ')}`);
      let bytes = 0;
      for (const file of files) {
        const content = readFileSync(file);
        bytes += content.length;
        for (const secret of secrets) {
          assert.equal(content.indexOf(Buffer.from(secret)), -1, `secret found in ${file}`);
          // Not even the random part alone, in any encoding a driver might use.
          const random = secret.replace(/^cs_(test|live)_/, '');
          assert.equal(content.indexOf(Buffer.from(random)), -1, `secret body found in ${file}`);
          assert.equal(content.indexOf(Buffer.from(random, 'utf16le')), -1, `UTF-16 secret found in ${file}`);
        }
      }
      assert.ok(bytes > 0);
      // The scan can find what it looks for: the API keys themselves are stored.
      const main = Buffer.concat(files.map((f) => readFileSync(f)));
      assert.notEqual(main.indexOf(Buffer.from(ctx.merchant.apiKey)), -1, 'the scan does not see stored keys');
    } else {
      const dump = await dumpPostgres(ctx);
      assert.ok(dump.includes(ctx.merchant.apiKey), 'the dump does not see stored keys');
      for (const secret of secrets) {
        assert.equal(dump.includes(secret), false, `secret ${secret.slice(0, 12)}… found in the database`);
        assert.equal(dump.includes(secret.replace(/^cs_(test|live)_/, '')), false, 'secret body found');
      }
    }
  });
});

describeBackends('test and live modes (R14)', (build) => {
  test('hides objects made with live keys from the test keys of the same merchant, and the other way round', async (t) => {
    const ctx = await build(t);
    const { app } = ctx;
    const testKeys = ctx.merchant;
    const liveKeys = await otherMode(ctx, testKeys);
    for (const [owner, other] of [
      [testKeys, liveKeys],
      [liveKeys, testKeys],
    ] as const) {
      const link = await createPaymentLink(app, owner);
      const payment = await createPreference(app, owner, { external_id: `only-${owner.mode}` });
      const subscription = await createPreference(app, owner, { type: 'SUBSCRIPTION', payment_link_id: link.id });
      const unknownPreference = (await get(app, other, '/v1/checkout_preferences/AAAAAAAAAAAAAAAAAAAAAA')).body;
      const unknownLink = (await get(app, other, '/v1/payment_links/AAAAAAAAAAAAAAAAAAAAAA')).body;
      for (const id of [payment.id, subscription.id]) {
        const res = await get(app, other, `/v1/checkout_preferences/${id}`);
        assert.equal(res.statusCode, 404, res.body);
        assert.equal(res.body, unknownPreference);
      }
      const linkRes = await get(app, other, `/v1/payment_links/${link.id}`);
      assert.equal(linkRes.statusCode, 404, linkRes.body);
      assert.equal(linkRes.body, unknownLink);
      const archive = await app.inject({
        method: 'POST',
        url: `/v1/payment_links/${link.id}/archive`,
        headers: other.authHeaders,
      });
      assert.equal(archive.statusCode, 404, archive.body);
      assert.equal(archive.body, unknownLink);
      assert.equal((await get(app, owner, `/v1/payment_links/${link.id}`)).json().status, 'ACTIVE');
      const lists = [
        `/v1/checkout_preferences?external_id=only-${owner.mode}`,
        '/v1/checkout_preferences?type=SUBSCRIPTION',
      ];
      for (const url of lists) {
        const visible = (await get(app, other, url)).json().data as { id: string }[];
        assert.ok(
          visible.every((p) => p.id !== payment.id && p.id !== subscription.id),
          url,
        );
      }
      const links = (await get(app, other, '/v1/payment_links')).json().data as { id: string }[];
      assert.ok(links.every((l) => l.id !== link.id));
      const own = (await get(app, owner, '/v1/payment_links')).json().data as { id: string }[];
      assert.deepEqual(
        own.map((l) => l.id),
        [link.id],
      );
    }
  });
});
