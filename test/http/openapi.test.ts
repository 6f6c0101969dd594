import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { formatOpenApi, OPENAPI_PATH, OPENAPI_PUBLIC_URL } from '../../scripts/write-openapi.ts';
import { buildTestApp } from '../support/test-app.ts';

// INTERFACE.md §10 and CONVENTIONS.md §7/§11: GET /openapi.json and the reference at /docs;
// every /v1 operation documents its error answers with the one ErrorBody; the committed
// docs/openapi.json is what the code serves (regenerate with `npm run openapi`).

type DocumentedResponse = { content?: Record<string, { schema?: { $ref?: string } }> };
type Operation = {
  operationId?: string;
  requestBody?: DocumentedResponse;
  responses: Record<string, DocumentedResponse>;
};
type OpenApiDocument = {
  openapi: string;
  servers: { url: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<
      string,
      { type?: string; required?: string[]; properties?: Record<string, unknown>; anyOf?: { $ref?: string }[] }
    >;
  };
  webhooks?: Record<string, { post?: Operation }>;
};

const ERROR_REF = '#/components/schemas/ErrorBody';
const READ_ERRORS = ['400', '401', '404', '429', '500'];
const WRITE_ERRORS = [...READ_ERRORS, '409', '413', '415', '422'];

/** The routes Fastify serves, with full paths, read from its route tree (HEAD is implied by GET). */
function servedRoutes(app: FastifyInstance): { path: string; method: string }[] {
  const routes: { path: string; method: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) {
      continue;
    }
    stack.length = (m[1] ?? '').length / 4;
    stack.push(m[2] ?? '');
    for (const method of (m[3] ?? '').split(', ').filter((x) => x !== '' && x !== 'HEAD')) {
      routes.push({ path: stack.join(''), method });
    }
  }
  return routes;
}

const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, '{$1}');

async function served(t: Parameters<typeof buildTestApp>[0]) {
  const { app } = await buildTestApp(t, 'sqlite', { env: { PUBLIC_URL: OPENAPI_PUBLIC_URL } });
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  return { app, document: res.json() as OpenApiDocument };
}

test('GET /openapi.json serves exactly the committed docs/openapi.json (run `npm run openapi` after changing a route)', async (t) => {
  const { document } = await served(t);
  const committed = readFileSync(OPENAPI_PATH, 'utf8');
  const fresh = formatOpenApi(document);
  if (fresh !== committed) {
    // Name the first difference, so the failure explains itself.
    const a = committed.split('\n');
    const b = fresh.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    assert.fail(
      `docs/openapi.json is stale: first difference at line ${line + 1}\n  committed: ${a[line] ?? '(end)'}\n  served:    ${b[line] ?? '(end)'}\nRun npm run openapi.`,
    );
  }
});

test('the document is OpenAPI 3.1 and describes every /v1 route with its ErrorBody error answers', async (t) => {
  const { app, document } = await served(t);
  assert.equal(document.openapi, '3.1.0');
  assert.deepEqual(document.servers, [{ url: OPENAPI_PUBLIC_URL }]);
  assert.deepEqual(document.security, [{ apiKey: [], apiSecret: [] }]);
  const errorBody = document.components.schemas.ErrorBody;
  assert.ok(errorBody, 'components.schemas.ErrorBody');
  assert.deepEqual(errorBody.required?.slice().sort(), ['code', 'messages']);
  assert.deepEqual(Object.keys(errorBody.properties ?? {}).sort(), ['code', 'messages']);

  const v1 = servedRoutes(app).filter((r) => r.path.startsWith('/v1/'));
  assert.ok(v1.length >= 10, `expected the /v1 routes, found ${JSON.stringify(v1)}`);
  const operationIds = new Set<string>();
  for (const route of v1) {
    const where = `${route.method} ${route.path}`;
    const operation = document.paths[toOpenApiPath(route.path)]?.[route.method.toLowerCase()];
    assert.ok(operation, `${where} is served but not in the OpenAPI document`);
    assert.ok(operation.operationId, `${where} has no operationId`);
    assert.ok(!operationIds.has(operation.operationId), `${where}: operationId ${operation.operationId} is used twice`);
    operationIds.add(operation.operationId);
    const successes = Object.keys(operation.responses).filter((s) => s.startsWith('2'));
    assert.equal(successes.length, 1, `${where} documents ${successes.join(', ') || 'no'} success answer`);
    for (const status of route.method === 'GET' ? READ_ERRORS : WRITE_ERRORS) {
      const response: DocumentedResponse | undefined = operation.responses[status];
      assert.ok(response, `${where} does not document ${status}`);
      assert.equal(response.content?.['application/json']?.schema?.$ref, ERROR_REF, `${where} ${status}`);
    }
  }
  // And nothing outside /v1 is published as API (health, metrics and pages are operations, not API).
  for (const path of Object.keys(document.paths)) {
    assert.ok(path.startsWith('/v1/'), `${path} is in the API document`);
    for (const method of Object.keys(document.paths[path] ?? {})) {
      assert.ok(
        v1.some((r) => toOpenApiPath(r.path) === path && r.method.toLowerCase() === method),
        `${method.toUpperCase()} ${path} is documented but not served`,
      );
    }
  }
});

test('every request body and success answer is a named component, and so are the webhook bodies (clients are generated from them)', async (t) => {
  const { document } = await served(t);
  const schemas = document.components.schemas;
  const named = (where: string, media: DocumentedResponse | undefined) => {
    for (const content of Object.values(media?.content ?? {})) {
      const ref = content.schema?.$ref ?? '';
      const name = /^#\/components\/schemas\/(\w+)$/.exec(ref)?.[1];
      assert.ok(
        name && schemas[name],
        `${where}: ${JSON.stringify(content.schema)?.slice(0, 120)} is not a named component`,
      );
    }
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      named(`${method.toUpperCase()} ${path} request`, operation.requestBody);
      for (const [status, response] of Object.entries(operation.responses)) {
        named(`${method.toUpperCase()} ${path} ${status}`, response);
      }
    }
  }
  const code = schemas.ErrorBody?.properties?.code as { enum?: unknown } | undefined;
  assert.ok(Array.isArray(code?.enum) && code.enum.includes('WRONG_INPUT'), 'ErrorBody.code is an enum');

  assert.deepEqual(
    schemas.CobroEvent?.anyOf?.map((s) => s.$ref),
    ['PaymentOrderEvent', 'PaymentOrderDisputedEvent', 'RecurrentPaymentEvent', 'WebhookEndpointTestEvent'].map(
      (n) => `#/components/schemas/${n}`,
    ),
  );
  const webhook = document.webhooks?.event?.post;
  assert.equal(webhook?.operationId, 'receiveEvent');
  named('the webhooks section', webhook?.requestBody);
  assert.equal(webhook?.requestBody?.content?.['application/json']?.schema?.$ref, '#/components/schemas/CobroEvent');
});

test('GET /docs answers the HTML API reference without credentials', async (t) => {
  const { app } = await served(t);
  const res = await app.inject({ method: 'GET', url: '/docs' });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(res.body, /<html/i);
  const spec = await app.inject({ method: 'GET', url: '/docs/json' });
  assert.equal(spec.statusCode, 200, spec.body.slice(0, 200));
  assert.equal((spec.json() as OpenApiDocument).openapi, '3.1.0');
});
