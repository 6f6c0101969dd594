import { recurrentPaymentEvent } from '../events/event.ts';
import type { EventPublisher } from '../events/event-publisher.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { AppError } from '../shared/errors.ts';
import type { TestClocks } from '../shared/test-clocks.ts';
import type { RecurrentPaymentStatus } from './recurrent-payment.status.ts';
import { assertRecurrentTransition } from './recurrent-payment.status.ts';
import type { RecurrentPayment, RecurrentPaymentChanges } from './recurrent-payment.ts';

export type SubscriptionOptions = {
  /** Days after a period's due date on which a failed renewal is tried again (default 1, 3, 5). */
  retryDays: readonly number[];
  /** When the retries of a period are exhausted: CANCELED (true) or stay UNPAID (false). */
  cancelWhenRetriesExhausted: boolean;
  /** How long before the due date a push-method renewal order is opened and mailed. */
  renewalNoticeMs: number;
  /**
   * Declined card attempts after which the checkout refuses more (PaymentOrderOptions.maxCardDeclines):
   * a subscription whose first payment reaches it can never start, so it is REJECTED.
   */
  maxCardDeclines: number;
  /**
   * Subscriptions billed side by side by one run (OpenDatabase.sideBySide). On PostgreSQL one
   * short of the pool, so the process's other work (API requests, when it serves them too) still
   * finds a connection; more would not bill faster (the process's CPU is the limit).
   */
  billingConcurrency: number;
};

/** One move of a record: to a status (or the same one), with changes, at a time, named for errors. */
export type MoveArgs = [
  repos: Repositories,
  rec: RecurrentPayment,
  to: RecurrentPaymentStatus,
  changes: RecurrentPaymentChanges,
  now: number,
  action: string,
];

/**
 * Recurrent payments: created when a SUBSCRIPTION checkout starts, activated by its first
 * payment, renewed period by period by the billing job, cancelled by the merchant or payer.
 * Every change is a compare-and-set on (status, sequence) with its event in the same transaction.
 *
 * One service a step (subscription: reading and cancelling, and the payer's new card;
 * subscription-lifecycle: what the subscription's payment orders do to it; subscription-billing:
 * the renewals that fall due); this is what the steps share: the merchant's clock, the move with
 * its event, and the options. The payment orders' side of renewals (RenewalCharger) is given to
 * the steps that need it.
 */
export class SubscriptionCore {
  constructor(
    readonly clocks: TestClocks,
    readonly events: EventPublisher,
    readonly options: SubscriptionOptions,
  ) {}

  now(who: { merchantId: string; mode: 'test' | 'live' }): number {
    return this.clocks.clockFor(who).now().getTime();
  }

  /** The move, or CONFLICT when `rec` is no longer current. */
  async move(...args: MoveArgs): Promise<RecurrentPayment> {
    const updated = await this.tryMove(...args);
    if (!updated) {
      const [, , , , , action] = args;
      throw new AppError('CONFLICT', [`recurrent payment cannot be ${action}: it changed meanwhile; retry`]);
    }
    return updated;
  }

  /** The move as a compare-and-set: undefined, and nothing written, when `rec` is no longer current. */
  async tryMove(...[repos, rec, to, changes, now, action]: MoveArgs): Promise<RecurrentPayment | undefined> {
    if (to !== rec.status) {
      assertRecurrentTransition(rec.status, to, action);
    }
    const updated = await repos.recurrentPayments.update(rec, to, changes, now);
    if (updated && to !== rec.status) {
      await this.events.publish(repos, recurrentPaymentEvent(updated, now));
    }
    return updated;
  }
}
