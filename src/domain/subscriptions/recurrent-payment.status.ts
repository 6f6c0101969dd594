import { AppError } from '../shared/errors.ts';

/**
 * The status of a recurrent payment (INTERFACE.md §5). Each change emits
 * `RECURRENT_PAYMENT.<STATUS>`.
 * - `PENDING`: the first payment (sign-up fee and first period, or the fee alone) is under way.
 * - `TRIALING`: in the trial; the first period is billed when it ends.
 * - `ACTIVE`: the current period is paid.
 * - `UNPAID`: a renewal failed; retries are running or exhausted.
 * - `INCOMPLETE`: the first payment failed and may still be retried by the payer.
 * - `CANCELED`, `COMPLETE` (all periods paid), `REJECTED` (first payment failed for good),
 *   `EXPIRED` (never paid before the preference expired): final.
 */
export type RecurrentPaymentStatus =
  | 'PENDING'
  | 'TRIALING'
  | 'ACTIVE'
  | 'UNPAID'
  | 'CANCELED'
  | 'COMPLETE'
  | 'INCOMPLETE'
  | 'REJECTED'
  | 'EXPIRED';

/** Every status, in the order the documentation lists them. */
export const RECURRENT_PAYMENT_STATUSES: readonly RecurrentPaymentStatus[] = [
  'PENDING',
  'TRIALING',
  'ACTIVE',
  'UNPAID',
  'CANCELED',
  'COMPLETE',
  'INCOMPLETE',
  'REJECTED',
  'EXPIRED',
];

// A paid renewal of an ACTIVE subscription, or another failed retry of an UNPAID one, changes
// the period fields but not the status: there are no self-transitions, so no duplicate event.
const NEXT: Record<RecurrentPaymentStatus, readonly RecurrentPaymentStatus[]> = {
  PENDING: ['TRIALING', 'ACTIVE', 'INCOMPLETE', 'REJECTED', 'EXPIRED', 'CANCELED'],
  TRIALING: ['ACTIVE', 'UNPAID', 'CANCELED'],
  ACTIVE: ['UNPAID', 'CANCELED', 'COMPLETE'],
  UNPAID: ['ACTIVE', 'CANCELED'],
  CANCELED: [],
  COMPLETE: [],
  INCOMPLETE: ['ACTIVE', 'REJECTED', 'EXPIRED', 'CANCELED'],
  REJECTED: [],
  EXPIRED: [],
};

/** Whether a recurrent payment in `from` may move to `to`. */
export const canTransition = (from: RecurrentPaymentStatus, to: RecurrentPaymentStatus): boolean =>
  NEXT[from].includes(to);

/** Whether nothing can follow `s` (CANCELED, COMPLETE, REJECTED, EXPIRED). */
export const isTerminal = (s: RecurrentPaymentStatus): boolean => NEXT[s].length === 0;

/**
 * Throws CONFLICT naming the action, the current status and the statuses it could start from,
 * e.g. `recurrent payment cannot be canceled: status is COMPLETE, expected PENDING or TRIALING or …`.
 */
export function assertRecurrentTransition(
  from: RecurrentPaymentStatus,
  to: RecurrentPaymentStatus,
  action: string,
): void {
  if (!canTransition(from, to)) {
    const expected = RECURRENT_PAYMENT_STATUSES.filter((s) => NEXT[s].includes(to));
    throw new AppError('CONFLICT', [
      `recurrent payment cannot be ${action}: status is ${from}, expected ${expected.join(' or ') || 'none'}`,
    ]);
  }
}
