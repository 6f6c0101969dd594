import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { JobRunner } from '../../../src/jobs/job-runner.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a job that keeps failing is retried after twice as long each time, and runs on its interval again once it succeeds', async () => {
  const lines: { msg: string; failures?: number }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const runner = new JobRunner(logger);
  const runs: number[] = [];
  runner.add({
    name: 'flaky',
    everyMs: 10,
    run: async () => {
      runs.push(Date.now());
      if (runs.length <= 4 || runs.length === 6) {
        throw new Error('database is down');
      }
    },
  });
  while (runs.length < 8) {
    await sleep(10);
  }
  await runner.stop();
  const gaps = runs.slice(1).map((at, i) => at - (runs[i] as number));
  // After the 1st, 2nd, 3rd and 4th failure in a row: at least 20, 40, 80 and 160 ms.
  for (const [i, least] of [20, 40, 80, 160].entries()) {
    assert.ok((gaps[i] as number) >= least - 2, `gap ${i + 1} was ${gaps[i]} ms, expected at least ${least}`);
  }
  const failed = lines.filter((l) => l.msg === 'job failed').map((l) => l.failures);
  // The success in between starts the count again: the next failure waits the shortest time.
  assert.deepEqual(failed, [1, 2, 3, 4, 1]);
  assert.equal(lines.filter((l) => l.msg === 'job recovered').length, 2);
});

test('stopping waits for the run in progress and starts no other', async () => {
  const runner = new JobRunner(pino({ level: 'silent' }));
  let finished = 0;
  let started = 0;
  runner.add({
    name: 'slow',
    everyMs: 5,
    run: async () => {
      started++;
      await sleep(50);
      finished++;
    },
  });
  while (started === 0) {
    await sleep(2);
  }
  await runner.stop();
  assert.equal(finished, started);
  await sleep(30);
  assert.equal(started, 1);
});
