import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';
import { createPaymentLink, createPreference, errorBody } from '../support/builders.ts';
import { describeBackends } from '../support/test-app.ts';
import { JSON_UTF8, UNKNOWN_ID } from './helpers.ts';

/** R13: the error model and the route inventory. */

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'];

/** What a body must never contain: stack frames, file paths, SQL, driver errors. */
const LEAKS: RegExp[] = [
  /\bat \S+ \(/,
  /\bat (file:|node:|\/)/,
  /node_modules/,
  /\/work\//,
  /\/src\//,
  /\.ts:\d+/,
  /\.js:\d+/,
  /SQLITE_/,
  /\bSELECT\s/,
  /\bINSERT\s/,
  /"stack"/,
  /FST_ERR/,
];

const UNKNOWN_PATHS = [
  '/',
  '/v0/checkout_preferences',
  '/v0/payment_methods',
  '/v2',
  '/v2/checkout_preferences',
  '/v2/payment_methods',
  '/debug',
  '/debug/vars',
  '/debug/pprof',
  '/admin',
  '/v1',
  '/v1/',
  '/v1/unknown',
  '/v1/debug',
  '/v1/checkout_preference',
  '/V1/currencies',
  '/v1/CURRENCIES',
  '/v1/checkout_preferences/x/y',
  '/v1/currencies/',
  '/v1/payment_methods/',
  '/v1/payment_links/',
  '/v1/test_helpers',
  '/health/',
  '/metrics/',
  '/openapi.json/',
  '/.env',
  '/.git/config',
  '/server-status',
  '/graphql',
  '/api/v1/checkout_preferences',
  '/actuator/health',
  '/wp-login.php',
  '//v1/currencies',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/v1/..%2f..%2fetc/passwd',
];

/** Every route outside these prefixes is undocumented. */
const ALLOWED = [
  /^\/health$/,
  /^\/ready$/,
  /^\/metrics$/,
  /^\/openapi\.json$/,
  /^\/docs(\/.*)?$/,
  /^\/v1\//,
  /^\/checkout\//,
  /^\/subscriptions\//,
  /^\/test-mailbox\//,
  // The public link of each subscription plan (docs/subscriptions.md, "Public plan links").
  /^\/l\//,
  // The merchant dashboard (docs/dashboard.md): HTML pages with their own error pages.
  /^\/dashboard([/*].*)?$/,
  // Where merchants' processors send their events (docs/connectors/stripe.md): signed, no credentials.
  /^\/connectors\/stripe\/webhooks\/:webhookId$/,
  // Where merchants' PSPs notify Pix received (docs/connectors/pix.md): only ever a prompt to ask the PSP.
  /^\/connectors\/pix\/webhooks\/:webhookId(\/pix)?$/,
];

function assertErrorAnswer(res: LightMyRequestResponse, what: string): void {
  assert.ok(res.statusCode >= 400, `${what}: ${res.statusCode} ${res.body}`);
  assert.equal(res.headers['content-type'], JSON_UTF8, `${what}: ${res.body}`);
  assert.match(String(res.headers['x-request-id']), /^[A-Za-z0-9._:-]{1,128}$/, what);
  if (res.body !== '') {
    errorBody(res.body);
  }
  for (const leak of LEAKS) {
    assert.doesNotMatch(res.body, leak, `${what}: ${res.body}`);
  }
}

/** The routes the app registered, from Fastify's route tree, as `[path, methods]`. */
function registeredRoutes(app: FastifyInstance): [string, string[]][] {
  const stack: string[] = [];
  const routes: [string, string[]][] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) {
      continue;
    }
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(m[2] ?? '');
    routes.push([stack.join(''), (m[3] ?? '').split(', ')]);
  }
  return routes;
}

describeBackends('error model and route inventory (R13)', (build) => {
  test('keeps every answer in the error model and every route documented', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test(
      'answers unknown routes with 404 NOT_FOUND in the error body, with and without credentials',
      async () => {
        const { app, merchant } = await fresh();
        for (const headers of [{}, merchant.authHeaders]) {
          for (const path of UNKNOWN_PATHS) {
            for (const method of METHODS) {
              const what = `${method} ${path} ${Object.keys(headers).length ? 'with' : 'without'} credentials`;
              const res = await app.inject({ method, url: path, headers });
              assertErrorAnswer(res, what);
              // A /v1 path that matches a route pattern (`/v1/payment_links/` is `:id` = '') asks for credentials first.
              const codes: Record<number, string> = { 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED' };
              if (Object.keys(headers).length === 0 && path.startsWith('/v1/')) {
                codes[401] = 'UNAUTHORIZED';
              }
              assert.ok(codes[res.statusCode], `${what}: ${res.statusCode} ${res.body}`);
              if (method !== 'HEAD') {
                assert.equal(errorBody(res.body).code, codes[res.statusCode], what);
              }
            }
          }
        }
      },
    );

    await t.test('answers a wrong method on a known path with 405 METHOD_NOT_ALLOWED and an Allow header', async () => {
      const { app, merchant } = await fresh();
      const cases: [string, string][] = [
        ['/v1/checkout_preferences', 'GET, HEAD, POST'],
        [`/v1/checkout_preferences/${UNKNOWN_ID}`, 'GET, HEAD'],
        ['/v1/payment_links', 'GET, HEAD, POST'],
        [`/v1/payment_links/${UNKNOWN_ID}`, 'GET, HEAD, PATCH, POST'],
        [`/v1/payment_links/${UNKNOWN_ID}/archive`, 'POST'],
        ['/v1/payment_methods', 'GET, HEAD'],
        ['/v1/currencies', 'GET, HEAD'],
        ['/health', 'GET, HEAD'],
        ['/ready', 'GET, HEAD'],
        ['/openapi.json', 'GET, HEAD'],
      ];
      for (const headers of [{}, merchant.authHeaders]) {
        for (const [path, allow] of cases) {
          for (const method of METHODS.filter((m) => !allow.split(', ').includes(m))) {
            const res = await app.inject({ method, url: path, headers });
            const what = `${method} ${path}`;
            assertErrorAnswer(res, what);
            assert.equal(res.statusCode, 405, `${what}: ${res.body}`);
            assert.equal(res.headers.allow, allow, what);
            if (method !== 'HEAD') {
              assert.deepEqual(errorBody(res.body), {
                code: 'METHOD_NOT_ALLOWED',
                messages: [`${method} is not allowed on ${path}`],
              });
            }
          }
        }
      }
    });

    await t.test('refuses TRACE and OPTIONS everywhere and never echoes the request', async () => {
      const { app, merchant } = await fresh();
      for (const path of ['/v1/checkout_preferences', '/v1/currencies', '/health', '/docs', '/nothing']) {
        for (const method of ['TRACE', 'OPTIONS'] as const) {
          const res = await app.inject({
            method,
            url: path,
            headers: { ...merchant.authHeaders, cookie: 'session=canary-cookie' },
          });
          assertErrorAnswer(res, `${method} ${path}`);
          assert.doesNotMatch(res.body, /canary-cookie|x-api-secret|cs_test_/);
        }
      }
    });

    await t.test('answers HEAD on a GET route like GET, without a body', async () => {
      const { app, merchant } = await fresh();
      for (const path of ['/v1/checkout_preferences', '/v1/payment_methods', '/v1/currencies', '/health']) {
        const res = await app.inject({ method: 'HEAD', url: path, headers: merchant.authHeaders });
        assert.equal(res.statusCode, 200, `HEAD ${path}`);
        assert.equal(res.body, '');
        assert.equal(res.headers['content-type'], JSON_UTF8);
      }
      const unauthenticated = await app.inject({ method: 'HEAD', url: '/v1/currencies' });
      assert.equal(unauthenticated.statusCode, 401);
      assert.equal(unauthenticated.body, '');
    });

    await t.test('answers trailing slashes with the error body, never with the resource', async () => {
      const { app, merchant } = await fresh();
      const preference = await createPreference(app, merchant);
      const link = await createPaymentLink(app, merchant);
      for (const path of [
        '/v1/checkout_preferences/',
        `/v1/checkout_preferences/${preference.id}/`,
        `/v1/payment_links/${link.id}/`,
        `/v1/payment_links/${link.id}/archive/`,
        '/v1/payment_methods/',
        '/v1/currencies/',
      ]) {
        for (const method of ['GET', 'POST'] as const) {
          const res = await app.inject({ method, url: path, headers: merchant.authHeaders, payload: {} });
          assertErrorAnswer(res, `${method} ${path}`);
          assert.ok([404, 405].includes(res.statusCode), `${method} ${path}: ${res.statusCode} ${res.body}`);
        }
      }
    });

    await t.test(
      'registers no route outside /health, /ready, /metrics, /openapi.json, /docs, /checkout, /subscriptions, /test-mailbox, /l, /dashboard, /connectors and /v1',
      async () => {
        const { app } = await fresh();
        const routes = registeredRoutes(app);
        assert.ok(routes.length >= 15, app.printRoutes({ commonPrefix: false }));
        for (const [path] of routes) {
          assert.ok(
            ALLOWED.some((allowed) => allowed.test(path)),
            `undocumented route ${path}`,
          );
        }
      },
    );

    await t.test('documents every /v1 route and method in /openapi.json', async () => {
      const { app } = await fresh();
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      assert.equal(res.statusCode, 200, res.body);
      const documented = res.json().paths as Record<string, Record<string, unknown>>;
      for (const [path, methods] of registeredRoutes(app).filter(([p]) => p.startsWith('/v1/'))) {
        const openapiPath = path.replace(/:([A-Za-z_]+)/g, '{$1}');
        for (const method of methods.filter((m) => m !== 'HEAD')) {
          assert.ok(documented[openapiPath]?.[method.toLowerCase()], `${method} ${path} is not in /openapi.json`);
        }
      }
    });

    await t.test('answers 2xx only on documented routes, and every non-2xx in the error body', async () => {
      const { app, merchant } = await fresh();
      const preference = await createPreference(app, merchant);
      const link = await createPaymentLink(app, merchant);
      const probes = [
        '/health',
        '/ready',
        '/metrics',
        '/openapi.json',
        '/docs',
        '/v1/checkout_preferences',
        `/v1/checkout_preferences/${preference.id}`,
        '/v1/payment_links',
        `/v1/payment_links/${link.id}`,
        '/v1/payment_methods',
        '/v1/currencies',
        ...UNKNOWN_PATHS,
      ];
      for (const headers of [{}, merchant.authHeaders]) {
        for (const path of probes) {
          const res = await app.inject({ method: 'GET', url: path, headers });
          const what = `GET ${path}`;
          if (res.statusCode < 300) {
            assert.ok(
              ALLOWED.some((allowed) => allowed.test(path)),
              `${what} answered ${res.statusCode}`,
            );
          } else if (res.statusCode >= 400) {
            assertErrorAnswer(res, what);
          } else {
            assert.match(path, /^\/docs/, `${what} redirected: ${res.statusCode}`);
          }
          assert.ok(res.headers['x-request-id'], `${what} has no x-request-id`);
        }
      }
    });

    await t.test('answers GET and DELETE sent with Content-Type: application/json and no body normally', async () => {
      const { app, merchant } = await fresh();
      const preference = await createPreference(app, merchant);
      for (const path of [
        '/v1/checkout_preferences',
        `/v1/checkout_preferences/${preference.id}`,
        '/v1/payment_links',
        '/v1/payment_methods',
        '/v1/currencies',
      ]) {
        for (const extra of [{}, { 'content-length': '0' }]) {
          const res = await app.inject({
            method: 'GET',
            url: path,
            headers: { ...merchant.authHeaders, 'content-type': 'application/json', ...extra },
          });
          assert.equal(res.statusCode, 200, `GET ${path}: ${res.body}`);
        }
        const del = await app.inject({
          method: 'DELETE',
          url: path,
          headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
        });
        // No DELETE route exists here yet: the body parser must not be what refuses it.
        assertErrorAnswer(del, `DELETE ${path}`);
        assert.equal(del.statusCode, 405, del.body);
      }
    });

    await t.test('puts x-request-id on every response, echoing a valid incoming one', async () => {
      const { app, merchant } = await fresh();
      const requests: { method: HTTPMethods; url: string; headers: Record<string, string>; payload?: unknown }[] = [
        { method: 'GET', url: '/v1/currencies', headers: merchant.authHeaders },
        { method: 'POST', url: '/v1/checkout_preferences', headers: merchant.authHeaders, payload: { type: 'X' } },
        { method: 'GET', url: '/v1/currencies', headers: {} },
        { method: 'GET', url: '/nothing', headers: {} },
        { method: 'DELETE', url: '/v1/currencies', headers: merchant.authHeaders },
        { method: 'GET', url: '/health', headers: {} },
        { method: 'GET', url: '/docs', headers: {} },
        { method: 'GET', url: '/metrics', headers: {} },
        {
          method: 'POST',
          url: '/v1/checkout_preferences',
          headers: { ...merchant.authHeaders, 'content-type': 'text/plain' },
          payload: 'x',
        },
      ];
      const valid = ['req-123', 'req_01HZX9:retry.2', 'a'.repeat(128), 'A1'];
      const invalid = ['a'.repeat(129), 'has space', '<script>', 'ümlaut', 'a,b', 'a/b'];
      for (const request of requests) {
        const plain = await app.inject({ ...request, payload: request.payload as string });
        assert.match(String(plain.headers['x-request-id']), /^[A-Za-z0-9]{22}$/, `${request.method} ${request.url}`);
        for (const id of valid) {
          const res = await app.inject({
            ...request,
            payload: request.payload as string,
            headers: { ...request.headers, 'x-request-id': id },
          });
          assert.equal(res.headers['x-request-id'], id, `${request.method} ${request.url}`);
        }
        for (const id of invalid) {
          const res = await app.inject({
            ...request,
            payload: request.payload as string,
            headers: { ...request.headers, 'x-request-id': id },
          });
          assert.match(String(res.headers['x-request-id']), /^[A-Za-z0-9]{22}$/, `${id} was not replaced`);
        }
      }
    });

    await t.test('never shows a stack trace, a file path or SQL in a body, whatever the input', async () => {
      const { app, merchant } = await fresh();
      const bodies = [
        '{"type":',
        '{"type":"PAYMENT","amount":1e999999}',
        `{"type":"PAYMENT","origin":"API","currency":"USD","title":"x","amount":5,"external_id":"${'\\u0000'.repeat(3)}"}`,
        '{"type":"PAYMENT","origin":"API","currency":"USD","title":"\'; DROP TABLE checkout_preferences; --","amount":5}',
        `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
        '\uFEFF{}',
        '{"__proto__":{"x":1}}',
      ];
      for (const payload of bodies) {
        for (const url of ['/v1/checkout_preferences', '/v1/payment_links']) {
          const res = await app.inject({
            method: 'POST',
            url,
            headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
            payload,
          });
          assert.ok(res.statusCode < 500, `${url} ${payload.slice(0, 40)}: ${res.statusCode} ${res.body}`);
          if (res.statusCode >= 400) {
            assertErrorAnswer(res, `${url} ${payload.slice(0, 40)}`);
          }
        }
      }
    });
  });

  test('answers a malformed percent-encoding in the path with 400 WRONG_INPUT in the error body', async (t) => {
    const { app, merchant } = await build(t);
    for (const url of ['/v1/checkout_preferences/%E0%A4%A', '/%', '/v1/payment_links/%zz']) {
      const res = await app.inject({ method: 'GET', url, headers: merchant.authHeaders });
      assertErrorAnswer(res, `GET ${url}`);
      assert.deepEqual(errorBody(res.body), { code: 'WRONG_INPUT', messages: ['malformed URL'] });
    }
  });
});
