import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { forEachConcurrently } from '../../../src/domain/shared/concurrency.ts';

test('every item is handled once, never more than the limit at a time', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat(3), { maxLength: 40 }), fc.integer({ min: 1, max: 8 }), async (delays, limit) => {
      const seen: number[] = [];
      let running = 0;
      let most = 0;
      await forEachConcurrently(
        delays.map((d, i) => ({ d, i })),
        limit,
        async ({ d, i }) => {
          running++;
          most = Math.max(most, running);
          await sleep(d);
          seen.push(i);
          running--;
        },
      );
      assert.deepEqual(
        [...seen].sort((a, b) => a - b),
        delays.map((_, i) => i),
      );
      assert.ok(most <= limit);
    }),
    { numRuns: 50 },
  );
});

test('the first failure stops new items from starting, waits for those under way, and is thrown', async () => {
  const started: number[] = [];
  const finished: number[] = [];
  await assert.rejects(
    forEachConcurrently([0, 1, 2, 3, 4, 5, 6, 7], 2, async (i) => {
      started.push(i);
      if (i === 2) {
        throw new Error('item 2 failed');
      }
      await sleep(5);
      finished.push(i);
    }),
    /item 2 failed/,
  );
  assert.ok(started.length <= 4, `started ${started.join(',')}`);
  assert.deepEqual(
    finished,
    started.filter((i) => i !== 2),
  );
});
