import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../../src/domain/shared/ids.ts';
import { describeBackends } from '../support/test-app.ts';

// UnitOfWork.oneStatement: a write of one statement, committed on its own (on PostgreSQL without
// BEGIN and COMMIT). A second statement in such a unit is refused, so a unit that grows one is
// caught by its tests instead of committing half of itself.

describeBackends('A unit of one statement', (build, backend) => {
  test('is committed: a preference created through the API is there to read, with and without an idempotency key', async (t) => {
    const { app, merchant } = await build(t);
    const body = { type: 'PAYMENT', origin: 'API', amount: 12.5, currency: 'USD', title: 'One statement' };
    for (const headers of [merchant.authHeaders, { ...merchant.authHeaders, 'idempotency-key': newId() }]) {
      const created = await app.inject({ method: 'POST', url: '/v1/checkout_preferences', headers, payload: body });
      assert.equal(created.statusCode, 201, created.body);
      const read = await app.inject({ url: `/v1/checkout_preferences/${created.json().id}`, headers });
      assert.equal(read.statusCode, 200, read.body);
      assert.equal(read.json().amount, 12.5);
    }
  });

  test('refuses a second statement', {
    skip: backend === 'sqlite' && 'on SQLite every unit is a transaction',
  }, async (t) => {
    const { cobro, merchant } = await build(t);
    const key = await cobro.database.db
      .selectFrom('api_keys')
      .select('key')
      .where('merchant_id', '=', merchant.id)
      .executeTakeFirstOrThrow();
    await assert.rejects(
      cobro.database.uow.oneStatement(async (repos) => {
        await repos.apiKeys.touch(key.key, 5_000);
        await repos.apiKeys.touch(key.key, 6_000);
      }),
      /second one/,
    );
    const touched = await cobro.database.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('key', '=', key.key)
      .executeTakeFirstOrThrow();
    assert.equal(
      Number(touched.last_used_at),
      5_000,
      'the first statement committed, the second was refused before it ran',
    );
  });

  test('refuses a second statement that was compiled beforehand (a prepared one)', {
    skip: backend === 'sqlite' && 'on SQLite every unit is a transaction',
  }, async (t) => {
    const { app, merchant, cobro } = await build(t);
    const body = { type: 'PAYMENT', origin: 'API', amount: 3, currency: 'USD', title: 'Twice' };
    const created = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: merchant.authHeaders,
      payload: body,
    });
    assert.equal(created.statusCode, 201, created.body);
    const pref = await cobro.database.uow.read.preferences.getById(created.json().id);
    assert.ok(pref);
    // The same prepared insert twice: the same compiled statement, run again.
    await assert.rejects(
      cobro.database.uow.oneStatement(async (repos) => {
        await repos.preferences.insert({ ...pref, id: newId() });
        await repos.preferences.insert({ ...pref, id: newId() });
      }),
      /second one/,
    );
  });
});
