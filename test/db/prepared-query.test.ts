import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PreparedQuery, PreparedShapes } from '../../src/db/repositories/prepared.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { describeBackends } from '../support/test-app.ts';

// Compiled-once queries (src/db/repositories/prepared.ts): new values on every run, constants
// kept, and a builder that forgets an argument refused instead of silently ignoring it.

const byNameAndCreated = new PreparedQuery<{ name: string }, { id: string }>((db, $) =>
  db.selectFrom('merchants').select('id').where('name', '=', $('name')).where('created_at', '=', 42n).orderBy('id'),
);

const forgetful = new PreparedQuery<{ id: string; name: string }, { id: string }>((db, $) =>
  db.selectFrom('merchants').select('id').where('id', '=', $('id')),
);

// An update whose SET list is the columns each call names.
const updateMerchant = new PreparedShapes<Record<string, unknown> & { _id: string }>((db, $, columns) =>
  db.updateTable('merchants').set(columns).where('id', '=', $('_id')),
);

describeBackends('Prepared queries', (build) => {
  test('of several shapes set exactly the columns each call names, whatever ran before', async (t) => {
    const { cobro } = await build(t);
    const tag = newId();
    const [a, b] = [newId(), newId()];
    await cobro.database.uow.transaction(async (repos) => {
      await repos.merchants.insert({ id: a, name: `Ana ${tag}`, createdAt: 1 });
      await repos.merchants.insert({ id: b, name: `Bia ${tag}`, createdAt: 2 });
    });
    const db = cobro.database.db;
    await updateMerchant.execute(db, ['name'], { _id: a, name: `Ana Maria ${tag}` });
    await updateMerchant.execute(db, ['created_at'], { _id: b, created_at: 20n });
    await updateMerchant.execute(db, ['name', 'created_at'], { _id: b, name: `Bia Lima ${tag}`, created_at: 21n });
    await updateMerchant.execute(db, ['name'], { _id: b, name: `Bia Luz ${tag}` });
    const rows = await db
      .selectFrom('merchants')
      .select(['id', 'name', 'created_at'])
      .where('id', 'in', [a, b])
      .orderBy('created_at')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.id, r.name, Number(r.created_at)]),
      [
        [a, `Ana Maria ${tag}`, 1],
        [b, `Bia Luz ${tag}`, 21],
      ],
    );
  });

  test('run with each call’s values and keep the constants they were built with', async (t) => {
    const { cobro } = await build(t);
    const tag = newId();
    const [a, b, c] = [newId(), newId(), newId()];
    await cobro.database.uow.transaction(async (repos) => {
      await repos.merchants.insert({ id: a, name: `Ana ${tag}`, createdAt: 42 });
      await repos.merchants.insert({ id: b, name: `Bia ${tag}`, createdAt: 42 });
      await repos.merchants.insert({ id: c, name: `Ana ${tag}`, createdAt: 43 });
    });
    const ids = async (name: string) =>
      (await byNameAndCreated.execute(cobro.database.db, { name: `${name} ${tag}` })).rows.map((r) => r.id);
    assert.deepEqual(await ids('Ana'), [a]);
    assert.deepEqual(await ids('Bia'), [b]);
    assert.deepEqual(await ids('Nobody'), []);
  });

  test('refuse a builder that leaves an argument out', async (t) => {
    const { cobro } = await build(t);
    await assert.rejects(
      forgetful.execute(cobro.database.db, { id: newId(), name: 'Ana' }),
      /argument name is not used/,
    );
  });
});
