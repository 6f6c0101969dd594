import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../../src/domain/shared/errors.ts';
import type { RecurrentPaymentStatus } from '../../../src/domain/subscriptions/recurrent-payment.status.ts';
import {
  assertRecurrentTransition,
  canTransition,
  isTerminal,
  RECURRENT_PAYMENT_STATUSES,
} from '../../../src/domain/subscriptions/recurrent-payment.status.ts';

// INTERFACE.md §5 and issue 5: the subscription state machine. The table below is written out
// again by hand, so a change to the machine has to be made twice, on purpose.

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_115);
const RUNS = { seed: SEED, numRuns: 2_000 };

const ALLOWED: Record<RecurrentPaymentStatus, readonly RecurrentPaymentStatus[]> = {
  PENDING: ['TRIALING', 'ACTIVE', 'INCOMPLETE', 'REJECTED', 'EXPIRED', 'CANCELED'],
  TRIALING: ['ACTIVE', 'UNPAID', 'CANCELED'],
  ACTIVE: ['UNPAID', 'CANCELED', 'COMPLETE'],
  UNPAID: ['ACTIVE', 'CANCELED'],
  INCOMPLETE: ['ACTIVE', 'REJECTED', 'EXPIRED', 'CANCELED'],
  CANCELED: [],
  COMPLETE: [],
  REJECTED: [],
  EXPIRED: [],
};
const TERMINAL: readonly RecurrentPaymentStatus[] = ['CANCELED', 'COMPLETE', 'REJECTED', 'EXPIRED'];

function conflictMessages(fn: () => void): readonly string[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    assert.equal(error.code, 'CONFLICT');
    assert.equal(error.status, 409);
    return error.messages;
  }
  assert.fail('expected a CONFLICT');
}

describe('recurrent payment statuses', () => {
  test('the status list has the nine statuses of INTERFACE.md §5, once each', () => {
    assert.deepEqual([...RECURRENT_PAYMENT_STATUSES].sort(), [
      'ACTIVE',
      'CANCELED',
      'COMPLETE',
      'EXPIRED',
      'INCOMPLETE',
      'PENDING',
      'REJECTED',
      'TRIALING',
      'UNPAID',
    ]);
  });

  test('every (from, to) pair is allowed exactly when the table says so', () => {
    let checked = 0;
    for (const from of RECURRENT_PAYMENT_STATUSES) {
      for (const to of RECURRENT_PAYMENT_STATUSES) {
        const allowed = ALLOWED[from].includes(to);
        assert.equal(canTransition(from, to), allowed, `${from} → ${to}`);
        if (allowed) {
          assert.doesNotThrow(() => assertRecurrentTransition(from, to, 'moved'), `${from} → ${to}`);
        } else {
          const [message] = conflictMessages(() => assertRecurrentTransition(from, to, 'moved'));
          assert.match(message ?? '', new RegExp(`^recurrent payment cannot be moved: status is ${from}, expected `));
        }
        checked += 1;
      }
    }
    assert.equal(checked, 81);
  });

  test('exactly CANCELED, COMPLETE, REJECTED and EXPIRED are terminal', () => {
    for (const s of RECURRENT_PAYMENT_STATUSES) {
      assert.equal(isTerminal(s), TERMINAL.includes(s), s);
    }
  });

  test('no status moves to itself, so an unchanged status emits no event', () => {
    for (const s of RECURRENT_PAYMENT_STATUSES) {
      assert.equal(canTransition(s, s), false, s);
    }
  });

  test('the CONFLICT message names the action, the current status and every status the target is reachable from', () => {
    assert.deepEqual(
      conflictMessages(() => assertRecurrentTransition('COMPLETE', 'CANCELED', 'canceled')),
      [
        'recurrent payment cannot be canceled: status is COMPLETE, expected PENDING or TRIALING or ACTIVE or UNPAID or INCOMPLETE',
      ],
    );
    assert.deepEqual(
      conflictMessages(() => assertRecurrentTransition('PENDING', 'COMPLETE', 'completed')),
      ['recurrent payment cannot be completed: status is PENDING, expected ACTIVE'],
    );
    assert.deepEqual(
      conflictMessages(() => assertRecurrentTransition('CANCELED', 'ACTIVE', 'renewed')),
      ['recurrent payment cannot be renewed: status is CANCELED, expected PENDING or TRIALING or UNPAID or INCOMPLETE'],
    );
  });

  test('nothing leads back to PENDING, and the message says so', () => {
    assert.deepEqual(
      conflictMessages(() => assertRecurrentTransition('ACTIVE', 'PENDING', 'reopened')),
      ['recurrent payment cannot be reopened: status is ACTIVE, expected none'],
    );
  });

  test('a random walk through allowed transitions never leaves a terminal state', () => {
    const status = fc.constantFrom(...RECURRENT_PAYMENT_STATUSES);
    fc.assert(
      fc.property(status, fc.array(status, { maxLength: 40 }), (start, attempts) => {
        let current = start;
        let terminalAt: RecurrentPaymentStatus | null = isTerminal(start) ? start : null;
        for (const to of attempts) {
          if (canTransition(current, to)) {
            assert.equal(terminalAt, null, `${current} is terminal but allowed → ${to}`);
            assertRecurrentTransition(current, to, 'moved');
            current = to;
            if (isTerminal(current)) {
              terminalAt = current;
            }
          } else {
            conflictMessages(() => assertRecurrentTransition(current, to, 'moved'));
          }
          if (terminalAt !== null) {
            assert.equal(current, terminalAt);
          }
        }
      }),
      RUNS,
    );
  });

  test('a random walk from PENDING that only takes allowed steps ends in a terminal state or keeps a way out', () => {
    // Each step picks one of the allowed successors; a state with none must be terminal, so a
    // subscription can never get stuck in a non-final status.
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (choices) => {
        let current: RecurrentPaymentStatus = 'PENDING';
        const visited: RecurrentPaymentStatus[] = [current];
        for (const choice of choices) {
          const next = RECURRENT_PAYMENT_STATUSES.filter((s) => canTransition(current, s));
          if (next.length === 0) {
            assert.ok(isTerminal(current), `${current} has no way out but is not terminal`);
            break;
          }
          const picked = next[choice % next.length];
          assert.ok(picked !== undefined);
          current = picked;
          visited.push(current);
        }
        assert.equal(visited.lastIndexOf('PENDING'), 0, `PENDING re-entered: ${visited.join(' → ')}`);
        assert.ok(
          visited.slice(0, -1).every((s) => !isTerminal(s)),
          `left a terminal state: ${visited.join(' → ')}`,
        );
      }),
      RUNS,
    );
  });
});
