import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../src/domain/shared/errors.ts';
import { newId } from '../../../src/domain/shared/ids.ts';
import { getOwned } from '../../../src/domain/shared/owned.ts';

const isNotFound = (name: string) => (err: unknown) =>
  err instanceof AppError && err.code === 'NOT_FOUND' && err.messages[0] === `${name} not found`;

test('getOwned answers the row the read finds', async () => {
  const id = newId();
  const row = await getOwned(id, 'payment order', async (asked) => ({ id: asked }));
  assert.deepEqual(row, { id });
});

test('getOwned answers NOT_FOUND "<name> not found" when the read finds nothing', async () => {
  await assert.rejects(
    getOwned(newId(), 'webhook endpoint', async () => undefined),
    isNotFound('webhook endpoint'),
  );
});

test('getOwned answers NOT_FOUND for a malformed id without reading', async () => {
  let reads = 0;
  const read = async () => {
    reads += 1;
    return { id: 'x' };
  };
  for (const id of ['', 'short', 'a'.repeat(23), `${'a'.repeat(21)}-`]) {
    await assert.rejects(getOwned(id, 'payment link', read), isNotFound('payment link'));
  }
  assert.equal(reads, 0);
});
