import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { after } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { errorBody } from '../support/builders.ts';
import type { BuildOptions, TestApp, TestMerchant } from '../support/test-app.ts';

/** Shared by the HTTP tests: small request shortcuts and assertions on the API's error body. */

export const JSON_UTF8 = 'application/json; charset=utf-8';

/** The id of the built-in CARD in USD (fixed across installs, see src/domain/payment-methods/catalog.ts). */
export const USD_CARD_ID = 'eXXZMUAzfgzf1iMulwpitD';
export const USD_BANK_TRANSFER_ID = 'jlbG2BoLT30LOwCWCuLYr0';
export const BRL_PIX_ID = 'N40dHHngtwPHjotdU8u4rQ';

/** A well-formed id that no object has. */
export const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** The wire form of a timestamp: RFC 3339 UTC, second precision. */
export function wireTime(ms: number): string {
  return `${new Date(ms - (((ms % 1000) + 1000) % 1000)).toISOString().slice(0, 19)}Z`;
}

export function createPreferenceRequest(
  app: FastifyInstance,
  merchant: TestMerchant,
  body: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/v1/checkout_preferences',
    headers: merchant.authHeaders,
    payload: body as Record<string, unknown>,
  });
}

export function get(app: FastifyInstance, merchant: TestMerchant, url: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url, headers: merchant.authHeaders });
}

/** Asserts a `400 WRONG_INPUT` whose messages are exactly `messages`. */
export function assertWrongInput(res: LightMyRequestResponse, messages: string[]): void {
  assert.equal(res.statusCode, 400, res.body);
  assert.equal(res.headers['content-type'], JSON_UTF8, res.body);
  assert.deepEqual(errorBody(res.body), { code: 'WRONG_INPUT', messages });
}

/**
 * Asserts a `400 WRONG_INPUT` whose first message is `first` and whose every message starts
 * with `field` (for members where the error body may add a second line about the same field).
 */
export function assertWrongInputAbout(res: LightMyRequestResponse, field: string, first: string): void {
  assert.equal(res.statusCode, 400, res.body);
  const body = errorBody(res.body);
  assert.equal(body.code, 'WRONG_INPUT', res.body);
  assert.equal(body.messages[0], first, res.body);
  for (const message of body.messages) {
    assert.ok(message.startsWith(field), `"${message}" does not name ${field}: ${res.body}`);
  }
}

/** Asserts an error answer with the given status and code, in the API's error body. */
export function assertError(res: LightMyRequestResponse, status: number, code: string, messages?: string[]): void {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.headers['content-type'], JSON_UTF8, res.body);
  const body = errorBody(res.body);
  assert.equal(body.code, code, res.body);
  if (messages) {
    assert.deepEqual(body.messages, messages, res.body);
  }
}

type Build = (t: TestContext, options?: BuildOptions) => Promise<TestApp>;

/**
 * A `build` for `runAuthTests` that starts one app for the whole describe block and gives every
 * case a merchant of its own (revoking one merchant's key leaves the others' alone). Building an
 * app per case costs more than all the requests of the case; call it inside the describe callback.
 */
export function sharedBuild(build: Build): Build {
  const cleanups: (() => unknown)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup();
    }
  });
  let shared: Promise<TestApp> | null = null;
  return async () => {
    shared ??= build({ after: (fn: () => unknown) => void cleanups.push(fn) } as unknown as TestContext);
    const ctx = await shared;
    return { ...ctx, merchant: await ctx.createMerchant() };
  };
}
