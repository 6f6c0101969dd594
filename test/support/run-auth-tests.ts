import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import type { InjectOptions } from 'fastify';
import type { BuildOptions, TestApp } from './test-app.ts';

type Prepare = (ctx: TestApp) => Promise<InjectOptions> | InjectOptions;

/**
 * The authentication cases every /v1 route must pass: missing, wrong, unknown, swapped and
 * revoked credentials all get the same 401 body, and credentials in the query string count for nothing.
 */
export function runAuthTests(
  build: (t: TestContext, options?: BuildOptions) => Promise<TestApp>,
  prepareRequest: Prepare,
): void {
  const cases: [
    string,
    (ctx: TestApp, headers: Record<string, string>) => Promise<Record<string, string>> | Record<string, string>,
  ][] = [
    ['no credentials', () => ({})],
    ['only the key', (ctx) => ({ 'x-api-key': ctx.merchant.apiKey })],
    ['only the secret', (ctx) => ({ 'x-api-secret': ctx.merchant.apiSecret })],
    ['a wrong secret', (ctx) => ({ 'x-api-key': ctx.merchant.apiKey, 'x-api-secret': `${ctx.merchant.apiSecret}x` })],
    [
      'an unknown key',
      (ctx) => ({ 'x-api-key': 'ck_test_doesnotexist000000000', 'x-api-secret': ctx.merchant.apiSecret }),
    ],
    ['a bearer token only', () => ({ authorization: 'Bearer cs_test_abc' })],
    ['an empty key and secret', () => ({ 'x-api-key': '', 'x-api-secret': '' })],
    ['an oversized secret', (ctx) => ({ 'x-api-key': ctx.merchant.apiKey, 'x-api-secret': 'x'.repeat(5000) })],
    [
      "the key of one merchant with another's secret",
      async (ctx) => {
        const other = await ctx.createMerchant();
        return { 'x-api-key': ctx.merchant.apiKey, 'x-api-secret': other.apiSecret };
      },
    ],
    [
      'a revoked key',
      async (ctx) => {
        await ctx.cobro.services.merchants.revokeKey(ctx.merchant.apiKey);
        return ctx.merchant.authHeaders;
      },
    ],
  ];
  for (const [name, headersFor] of cases) {
    test(`answers 401 UNAUTHORIZED with ${name}`, async (t) => {
      const ctx = await build(t);
      const request = await prepareRequest(ctx);
      const base = { ...(request.headers as Record<string, string>) };
      delete base['x-api-key'];
      delete base['x-api-secret'];
      const res = await ctx.app.inject({ ...request, headers: { ...base, ...(await headersFor(ctx, base)) } });
      assert.equal(res.statusCode, 401, res.body);
      assert.deepEqual(res.json(), {
        code: 'UNAUTHORIZED',
        messages: ['invalid or missing credentials: send x-api-key and x-api-secret'],
      });
    });
  }
  test('ignores credentials sent in the query string', async (t) => {
    const ctx = await build(t);
    const request = await prepareRequest(ctx);
    const url = String(request.url);
    const sep = url.includes('?') ? '&' : '?';
    const res = await ctx.app.inject({
      ...request,
      headers: {},
      url: `${url}${sep}x-api-key=${ctx.merchant.apiKey}&x-api-secret=${ctx.merchant.apiSecret}`,
    });
    assert.equal(res.statusCode, 401, res.body);
  });
  test('accepts the credential headers in any letter case', async (t) => {
    const ctx = await build(t);
    const request = await prepareRequest(ctx);
    const res = await ctx.app.inject({
      ...request,
      headers: {
        ...(request.headers as Record<string, string>),
        'X-API-KEY': ctx.merchant.apiKey,
        'X-Api-Secret': ctx.merchant.apiSecret,
      },
    });
    assert.ok(res.statusCode < 400, res.body);
  });
}
