import { forEachConcurrently } from '../shared/concurrency.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { periodBounds } from './billing-schedule.ts';
import type { RecurrentPaymentStatus } from './recurrent-payment.status.ts';
import type { RenewalCharger } from './renewal-charger.ts';
import type { SubscriptionCore } from './subscription.core.ts';

const BILLABLE: readonly RecurrentPaymentStatus[] = ['TRIALING', 'ACTIVE', 'UNPAID'];

/** The billing engine: the renewals that fall due, the plans that finish, the checkouts abandoned. */
export class SubscriptionBillingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly core: SubscriptionCore,
    private readonly charger: RenewalCharger,
  ) {}

  /**
   * Charges (cards) or opens and mails (push methods) every renewal that fell due, completes the
   * finished plans, and expires abandoned checkouts. Safe to run concurrently from several
   * processes: each (subscription, period, try) is one order by a unique index, and a period is
   * paid at most once by another; a crash leaves an OPENED order that the next run settles.
   */
  async runBilling(): Promise<number> {
    await this.expireAbandoned();
    const base = this.core.clocks.system.now().getTime();
    const horizon =
      base + Math.max(0, ...this.core.clocks.advanced().map((a) => a.offsetMs)) + this.core.options.renewalNoticeMs;
    let actions = 0;
    // Subscriptions are billed side by side (each one's periods in order): on SQLite their
    // commits then share fsyncs (group commit), on PostgreSQL they use the pool's connections.
    const due = await this.uow.read.recurrentPayments.listDue(BILLABLE, horizon, 1000);
    await forEachConcurrently(due, this.core.options.billingConcurrency, async (listed) => {
      actions += await this.billPeriods(listed.id);
    });
    return actions;
  }

  /** Opens and charges what one subscription owes now, period by period; the actions taken. */
  private async billPeriods(id: string): Promise<number> {
    let actions = 0;
    // Catch up period by period after a clock jump, bounded per run.
    for (let step = 0; step < 240; step++) {
      const rec = await this.uow.read.recurrentPayments.getById(id);
      if (!rec || !BILLABLE.includes(rec.status) || rec.nextPaymentDate === null || rec.anchorAt === null) {
        break;
      }
      const now = this.core.now(rec);
      if (rec.intervalCount !== null && rec.periodsPaid >= rec.intervalCount) {
        if (now >= rec.nextPaymentDate) {
          await this.uow
            .transaction(async (repos) => {
              const current = await repos.recurrentPayments.getById(rec.id);
              if (current?.status === 'ACTIVE') {
                await this.core.move(repos, current, 'COMPLETE', { nextPaymentDate: null }, now, 'completed');
              }
            })
            .catch(() => undefined);
          actions++;
        }
        break;
      }
      const push = rec.paymentMethodType !== 'CARD';
      const opensAt = push ? rec.nextPaymentDate - this.core.options.renewalNoticeMs : rec.nextPaymentDate;
      if (now < opensAt) {
        break;
      }
      const period = rec.periodsPaid;
      const attempt = rec.failedAttempts + 1;
      // A push renewal stays open for days and is looked at on every run, so it is read first;
      // a card renewal is charged on the run that opens it, so it is opened straight away (a
      // leftover order, after a crash, is found by openRenewal instead).
      let order = push ? await this.charger.getRenewal(rec.id, period, attempt) : undefined;
      if (!order) {
        const opening = await this.charger.openRenewal(rec, period, attempt, rec.nextPaymentDate);
        if (opening?.opened) {
          actions++;
        }
        order = opening?.order;
      }
      if (!order) {
        break;
      }
      if (!push && order.status === 'OPENED') {
        if (!rec.cardToken) {
          await this.charger.expire(order).catch(() => undefined);
        } else {
          try {
            const charged = await this.charger.chargeRenewal(order, rec.cardToken, rec);
            // Still open: the processor did not answer, or the payer must confirm it; a later run asks again.
            if (charged.status === 'OPENED') {
              break;
            }
            // Paid: the period's end is the next due date, so unless the clock is already past
            // it (catching up), there is nothing more to bill and no need to read the record again.
            if (charged.status === 'CLOSED' && now < periodBounds(rec.anchorAt, rec.intervalType, period).end) {
              break;
            }
          } catch (error) {
            // Another scheduler settled this order first (the processor answered both alike, by
            // the order's idempotency key): read the subscription again rather than abort the run.
            if (!(error instanceof AppError && error.code === 'CONFLICT')) {
              throw error;
            }
          }
        }
        continue;
      }
      // Push renewals wait for the payer; their order expires at the due date if unpaid.
      break;
    }
    return actions;
  }

  /** Subscriptions whose checkout expired before any payment: EXPIRED. */
  private async expireAbandoned(): Promise<void> {
    for (const rec of await this.uow.read.recurrentPayments.listByStatus(['PENDING', 'INCOMPLETE'], 500)) {
      const pref = await this.uow.read.preferences.getById(rec.checkoutPreferenceId);
      if (pref && pref.status === 'OPEN' && pref.expiresAt > this.core.now(rec)) {
        continue;
      }
      if (pref?.status === 'PAID') {
        continue;
      }
      const now = this.core.now(rec);
      await this.uow
        .transaction(async (repos) => {
          const current = await repos.recurrentPayments.getById(rec.id);
          if (current && (current.status === 'PENDING' || current.status === 'INCOMPLETE')) {
            await this.core.move(repos, current, 'EXPIRED', {}, now, 'expired');
          }
        })
        .catch(() => undefined);
    }
  }
}
