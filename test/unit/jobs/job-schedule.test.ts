import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { JobRunner } from '../../../src/jobs/job-runner.ts';
import type { JobParts } from '../../../src/jobs/job-schedule.ts';
import { runPaymentJobs, scheduleJobs } from '../../../src/jobs/job-schedule.ts';

/** Job parts whose steps call `ran` with their job's name; the card sync then does `cardSync`. */
function recordingParts(ran: (job: string) => void, cardSync: () => Promise<void> = async () => undefined): JobParts {
  const step = (name: string) => async () => {
    ran(name);
    return 0;
  };
  return {
    orderSweeps: {
      syncPendingCards: async () => {
        ran('card-sync');
        await cardSync();
      },
      expireDue: step('order-expiry'),
    },
    chainObserver: { observe: async (mode) => ran(`${mode}-chains`) },
    billing: { runBilling: step('billing') },
    emails: { sendQueued: step('email') },
    delivery: { tick: step('webhooks') },
    clocks: { refresh: async () => ran('test-clocks') },
    pixCharges: { sync: step('pix-sync') },
    cardRefunds: { sync: step('card-refund-sync') },
    cardCheckout: { sync: async () => ran('card-connector-sync') },
  };
}

test('a payment job that keeps throwing does not stop the others from running on their own timers', async () => {
  const runner = new JobRunner(pino({ level: 'silent' }));
  let cardSyncFailures = 0;
  const others = new Set(['test-chains', 'order-expiry', 'billing', 'email']);
  const ranAfterAFailure = new Set<string>();
  let allRan: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allRan = resolve;
  });
  const parts = recordingParts(
    (job) => {
      if (cardSyncFailures > 0 && others.has(job)) {
        ranAfterAFailure.add(job);
        if (ranAfterAFailure.size === others.size) {
          allRan();
        }
      }
    },
    async () => {
      cardSyncFailures++;
      throw new Error('card processor is down');
    },
  );
  scheduleJobs(runner, parts, { liveChains: false, liveChainsEveryMs: 1000 });
  // The runner's timers do not hold the process open; this one does, until the others have run.
  const keepAlive = setInterval(() => undefined, 60_000);
  await done;
  clearInterval(keepAlive);
  await runner.stop();
  assert.ok(cardSyncFailures > 0);
  assert.deepEqual([...ranAfterAFailure].sort(), [...others].sort());
});

test('runPaymentJobs runs every payment step once, in order, live chains included', async () => {
  const runs: string[] = [];
  await runPaymentJobs(recordingParts((job) => runs.push(job)));
  assert.deepEqual(runs, [
    'card-sync',
    'test-chains',
    'live-chains',
    'order-expiry',
    'pix-sync',
    'card-refund-sync',
    'card-connector-sync',
    'billing',
    'email',
  ]);
});
