import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PreparedQuery } from '../../src/db/repositories/prepared.ts';
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

describeBackends('Prepared queries', (build) => {
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
