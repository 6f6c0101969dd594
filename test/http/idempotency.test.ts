import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  createPaymentLink,
  createPreference,
  errorBody,
  paymentBody,
  subscriptionPlanBody,
} from '../support/builders.ts';
import type { TestMerchant } from '../support/test-app.ts';
import { BANK_DETAILS, describeBackends } from '../support/test-app.ts';

// RELIABILITY.md R2 (cases a–g) and INTERFACE.md §1 "Idempotency-Key on every POST".

const HOUR = 3_600_000;

function post(
  app: FastifyInstance,
  merchant: TestMerchant,
  url: string,
  payload: Record<string, unknown> | undefined,
  key: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...merchant.authHeaders, 'idempotency-key': key },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function listIds(app: FastifyInstance, merchant: TestMerchant, url: string): Promise<string[]> {
  const res = await app.inject({ method: 'GET', url: `${url}?limit=100`, headers: merchant.authHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { data: { id: string }[] }).data.map((p) => p.id);
}

describeBackends('Idempotency-Key on POST', (build) => {
  test('(a) 100 concurrent identical POSTs with one key create exactly one preference; the rest replay it or get 409', async (t) => {
    const { app, merchant } = await build(t);
    const key = 'concurrent-order-1';
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => post(app, merchant, '/v1/checkout_preferences', paymentBody(), key)),
    );
    const ids = await listIds(app, merchant, '/v1/checkout_preferences');
    assert.equal(ids.length, 1, `objects created for one key: ${ids.length}`);

    const created = answers.filter((r) => r.statusCode === 201);
    assert.ok(created.length >= 1, answers.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
    const first = created.find((r) => r.headers['idempotent-replayed'] === 'false');
    assert.ok(first, 'one answer is the original (idempotent-replayed: false)');
    assert.equal(created.filter((r) => r.headers['idempotent-replayed'] === 'false').length, 1);
    assert.equal((JSON.parse(first.body) as { id: string }).id, ids[0], first.body);
    for (const res of answers) {
      if (res.statusCode === 201) {
        assert.equal(res.body, first.body, 'a replay carries the same bytes as the original');
      } else {
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(errorBody(res.body).code, 'CONFLICT', res.body);
      }
    }
    // Once the first has finished, every retry is a replay.
    const after = await post(app, merchant, '/v1/checkout_preferences', paymentBody(), key);
    assert.equal(after.statusCode, 201, after.body);
    assert.equal(after.body, first.body);
  });

  test('(b) ten sequential retries replay the same status and bytes, marked idempotent-replayed: true', async (t) => {
    const { app, merchant } = await build(t);
    const original = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ external_id: 'r-1' }), 'k-b');
    assert.equal(original.statusCode, 201, original.body);
    assert.equal(original.headers['idempotent-replayed'], 'false');
    for (let i = 0; i < 10; i++) {
      const replay = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ external_id: 'r-1' }), 'k-b');
      assert.equal(replay.statusCode, 201, replay.body);
      assert.equal(replay.body, original.body, `replay ${i} differs`);
      assert.equal(replay.headers['idempotent-replayed'], 'true', `replay ${i}`);
      assert.equal(replay.headers['content-type'], 'application/json; charset=utf-8');
    }
    assert.equal((await listIds(app, merchant, '/v1/checkout_preferences')).length, 1);
  });

  test('(c) the same key with a different body answers 422 IDEMPOTENCY_KEY_REUSED and creates nothing', async (t) => {
    const { app, merchant } = await build(t);
    const first = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ amount: 10 }), 'k-c');
    assert.equal(first.statusCode, 201, first.body);
    const second = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ amount: 11 }), 'k-c');
    assert.equal(second.statusCode, 422, second.body);
    assert.equal(second.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(errorBody(second.body).code, 'IDEMPOTENCY_KEY_REUSED', second.body);
    // The same key on another endpoint is another request too.
    const other = await post(app, merchant, '/v1/payment_links', subscriptionPlanBody(), 'k-c');
    assert.equal(other.statusCode, 422, other.body);
    assert.equal(errorBody(other.body).code, 'IDEMPOTENCY_KEY_REUSED', other.body);
    assert.equal((await listIds(app, merchant, '/v1/checkout_preferences')).length, 1);
    assert.equal((await listIds(app, merchant, '/v1/payment_links')).length, 0);
    // And the original is still replayed.
    const replay = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ amount: 10 }), 'k-c');
    assert.equal(replay.body, first.body);
  });

  test('(d) merchant B using the key of merchant A gets its own new object, never A’s answer', async (t) => {
    const { app, merchant: a, createMerchant } = await build(t);
    const b = await createMerchant();
    const fromA = await post(app, a, '/v1/checkout_preferences', paymentBody(), 'shared-key');
    const fromB = await post(app, b, '/v1/checkout_preferences', paymentBody(), 'shared-key');
    assert.equal(fromA.statusCode, 201, fromA.body);
    assert.equal(fromB.statusCode, 201, fromB.body);
    assert.equal(fromB.headers['idempotent-replayed'], 'false');
    const prefA = JSON.parse(fromA.body) as { id: string; user_id: string };
    const prefB = JSON.parse(fromB.body) as { id: string; user_id: string };
    assert.notEqual(prefB.id, prefA.id, fromB.body);
    assert.equal(prefB.user_id, b.id, fromB.body);
    assert.deepEqual(await listIds(app, a, '/v1/checkout_preferences'), [prefA.id]);
    assert.deepEqual(await listIds(app, b, '/v1/checkout_preferences'), [prefB.id]);
    // The same merchant's live mode is another scope as well.
    const live = await createMerchant('live', { bank: BANK_DETAILS });
    const fromLive = await post(app, live, '/v1/checkout_preferences', paymentBody(), 'shared-key');
    assert.equal(fromLive.statusCode, 201, fromLive.body);
    assert.equal(fromLive.headers['idempotent-replayed'], 'false');
  });

  test('(e) a request that failed validation is not stored: the corrected retry with the same key gets 201', async (t) => {
    const { app, merchant } = await build(t);
    // Refused by the schema (type) and by the domain rules (USD bound): neither keeps the key.
    const badType = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ amount: 'ten' }), 'k-e1');
    assert.equal(badType.statusCode, 400, badType.body);
    assert.equal(errorBody(badType.body).code, 'WRONG_INPUT');
    const fixedType = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ amount: 10 }), 'k-e1');
    assert.equal(fixedType.statusCode, 201, fixedType.body);
    assert.equal(fixedType.headers['idempotent-replayed'], 'false');

    const badRule = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ amount: 0.05 }), 'k-e2');
    assert.equal(badRule.statusCode, 400, badRule.body);
    assert.equal(errorBody(badRule.body).code, 'WRONG_INPUT');
    const fixedRule = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ amount: 0.5 }), 'k-e2');
    assert.equal(fixedRule.statusCode, 201, fixedRule.body);
    assert.equal(fixedRule.headers['idempotent-replayed'], 'false');

    // The same failing body retried is evaluated again (400 again), not replayed.
    const again = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ amount: 0.05 }), 'k-e3');
    const againRetry = await post(app, merchant, '/v1/checkout_preferences', paymentBody({ amount: 0.05 }), 'k-e3');
    assert.equal(again.statusCode, 400, again.body);
    assert.equal(againRetry.statusCode, 400, againRetry.body);
    assert.notEqual(againRetry.headers['idempotent-replayed'], 'true');
    assert.equal((await listIds(app, merchant, '/v1/checkout_preferences')).length, 2);
  });

  test('(f) a retry within 24 hours is replayed; after 24 hours and 1 second it creates a new object', async (t) => {
    const { app, merchant, clock } = await build(t);
    const first = await post(app, merchant, '/v1/checkout_preferences', paymentBody(), 'k-f');
    assert.equal(first.statusCode, 201, first.body);

    clock.advance(23 * HOUR + 59 * 60_000);
    const within = await post(app, merchant, '/v1/checkout_preferences', paymentBody(), 'k-f');
    assert.equal(within.statusCode, 201, within.body);
    assert.equal(within.body, first.body, 'replayed at 23 h 59 min');
    assert.equal(within.headers['idempotent-replayed'], 'true');

    clock.advance(60_000 + 1_000);
    const after = await post(app, merchant, '/v1/checkout_preferences', paymentBody(), 'k-f');
    assert.equal(after.statusCode, 201, after.body);
    assert.equal(after.headers['idempotent-replayed'], 'false');
    assert.notEqual((JSON.parse(after.body) as { id: string }).id, (JSON.parse(first.body) as { id: string }).id);
    assert.equal((await listIds(app, merchant, '/v1/checkout_preferences')).length, 2);
    // The new answer is the one kept from now on.
    const replay = await post(app, merchant, '/v1/checkout_preferences', paymentBody(), 'k-f');
    assert.equal(replay.body, after.body);
  });

  test('(g) an Idempotency-Key of 256 characters answers 400; 255 characters are accepted', async (t) => {
    const { app, merchant } = await build(t);
    const tooLong = await post(app, merchant, '/v1/checkout_preferences', paymentBody(), 'k'.repeat(256));
    assert.equal(tooLong.statusCode, 400, tooLong.body);
    const err = errorBody(tooLong.body);
    assert.equal(err.code, 'WRONG_INPUT', tooLong.body);
    assert.ok(
      err.messages.some((m) => m.includes('Idempotency-Key')),
      tooLong.body,
    );
    assert.equal((await listIds(app, merchant, '/v1/checkout_preferences')).length, 0);

    const longest = 'k'.repeat(255);
    const ok = await post(app, merchant, '/v1/checkout_preferences', paymentBody(), longest);
    assert.equal(ok.statusCode, 201, ok.body);
    const replay = await post(app, merchant, '/v1/checkout_preferences', paymentBody(), longest);
    assert.equal(replay.body, ok.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');

    for (const bad of ['', 'tab\there', 'ключ']) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: { ...merchant.authHeaders, 'idempotency-key': bad },
        payload: paymentBody(),
      });
      assert.equal(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`);
      assert.equal(errorBody(res.body).code, 'WRONG_INPUT', res.body);
    }
  });

  test('POST /v1/payment_links with a key replays its answer and refuses another body with 422', async (t) => {
    const { app, merchant } = await build(t);
    const first = await post(app, merchant, '/v1/payment_links', subscriptionPlanBody(), 'plan-1');
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.headers['idempotent-replayed'], 'false');
    const replay = await post(app, merchant, '/v1/payment_links', subscriptionPlanBody(), 'plan-1');
    assert.equal(replay.statusCode, 201, replay.body);
    assert.equal(replay.body, first.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    const other = await post(app, merchant, '/v1/payment_links', subscriptionPlanBody({ amount: 19.99 }), 'plan-1');
    assert.equal(other.statusCode, 422, other.body);
    assert.equal(errorBody(other.body).code, 'IDEMPOTENCY_KEY_REUSED');

    const concurrent = await Promise.all(
      Array.from({ length: 20 }, () => post(app, merchant, '/v1/payment_links', subscriptionPlanBody(), 'plan-2')),
    );
    const originals = concurrent.filter((r) => r.statusCode === 201);
    for (const r of concurrent) {
      assert.ok(r.statusCode === 201 || r.statusCode === 409, r.body);
    }
    assert.ok(originals.every((r) => r.body === originals[0]?.body));
    assert.equal((await listIds(app, merchant, '/v1/payment_links')).length, 2);
  });

  test('POST /v1/payment_links/:id/archive with a key replays its first answer byte for byte', async (t) => {
    const { app, merchant, clock } = await build(t);
    const link = await createPaymentLink(app, merchant);
    const first = await post(app, merchant, `/v1/payment_links/${link.id}/archive`, undefined, 'archive-1');
    assert.equal(first.statusCode, 200, first.body);
    assert.equal((JSON.parse(first.body) as { status: string }).status, 'ARCHIVED', first.body);
    clock.advance(5_000);
    const replay = await post(app, merchant, `/v1/payment_links/${link.id}/archive`, undefined, 'archive-1');
    assert.equal(replay.statusCode, 200, replay.body);
    assert.equal(replay.body, first.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    // The key belongs to that request: archiving another link with it is a different request.
    const other = await createPaymentLink(app, merchant);
    const reused = await post(app, merchant, `/v1/payment_links/${other.id}/archive`, undefined, 'archive-1');
    assert.equal(reused.statusCode, 422, reused.body);
    assert.equal(errorBody(reused.body).code, 'IDEMPOTENCY_KEY_REUSED');
    // An unknown id is an error answer, not stored: the key stays free.
    const missing = await post(app, merchant, '/v1/payment_links/AAAAAAAAAAAAAAAAAAAAAA/archive', undefined, 'a-2');
    assert.equal(missing.statusCode, 404, missing.body);
    const retried = await post(app, merchant, `/v1/payment_links/${other.id}/archive`, undefined, 'a-2');
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(retried.headers['idempotent-replayed'], 'false');
  });

  test('a pay whose process died after opening the order is answered from that order on retry, never paid again or refused', async (t) => {
    const ctx = await build(t);
    const { app, merchant } = ctx;
    const db = ctx.cobro.database.db;
    /** The key's row as a crash leaves it: in flight, its lock lapsed, no answer stored. */
    const crashAfterCommit = (key: string) =>
      db
        .updateTable('idempotency_keys')
        .set({ state: 'IN_FLIGHT', response_status: null, response_body: null, locked_until: 0n })
        .where('merchant_id', '=', merchant.id)
        .where('key', '=', key)
        .execute();
    for (const [outcome, status] of [
      ['APPROVED', 'CLOSED'],
      ['PENDING', 'OPENED'],
    ] as const) {
      const pref = await createPreference(app, merchant, { payment_method_types: ['BANK_TRANSFER'] });
      const url = `/v1/test_helpers/checkout_preferences/${pref.id}/pay`;
      const key = `pay-${outcome}`;
      const first = await post(app, merchant, url, { outcome }, key);
      assert.equal(first.statusCode, 201, first.body);
      const order = first.json() as { id: string; status: string };
      assert.equal(order.status, status);
      await crashAfterCommit(key);
      const retry = await post(app, merchant, url, { outcome }, key);
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], 'false');
      assert.deepEqual(
        { id: retry.json().id, status: retry.json().status },
        { id: order.id, status },
        'the same order, in its state now',
      );
      // Its answer is stored now: the next retry is a plain replay.
      const again = await post(app, merchant, url, { outcome }, key);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, retry.body);
      const orders = await app.inject({
        url: `/v1/payment_orders?checkout_preference_id=${pref.id}`,
        headers: merchant.authHeaders,
      });
      assert.equal((orders.json() as { data: unknown[] }).data.length, 1, 'no second order');
    }
    // A request that died before opening anything left no recovery point: the retry runs it anew.
    const pref = await createPreference(app, merchant, { payment_method_types: ['BANK_TRANSFER'] });
    await db
      .insertInto('idempotency_keys')
      .values({
        merchant_id: merchant.id,
        mode: 'test',
        key: 'died-early',
        request_hash: 'whatever',
        state: 'IN_FLIGHT',
        response_status: null,
        response_body: null,
        locked_until: 0n,
        created_at: 0n,
        expires_at: 9_999_999_999_999n,
        resource_id: null,
      })
      .execute();
    const fresh = await post(app, merchant, `/v1/test_helpers/checkout_preferences/${pref.id}/pay`, {}, 'died-early');
    assert.equal(fresh.statusCode, 201, fresh.body);
    assert.equal(fresh.json().status, 'CLOSED');
  });
});
