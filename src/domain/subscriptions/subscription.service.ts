import type { CheckoutPreference } from '../checkout-preferences/checkout-preference.ts';
import type { DomainEvent } from '../events/event.ts';
import { recurrentPaymentEvent } from '../events/event.ts';
import type { Caller } from '../merchants/merchant.ts';
import type { PaymentMethod } from '../payment-methods/payment-method.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { Repositories } from '../repositories.ts';
import { forEachConcurrently } from '../shared/concurrency.ts';
import { AppError, notFound } from '../shared/errors.ts';
import { isWellFormedId, newId } from '../shared/ids.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { TestClocks } from '../shared/test-clocks.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { DAY_MS, periodBounds, trialEnd } from './billing-schedule.ts';
import type { RecurrentPaymentStatus } from './recurrent-payment.status.ts';
import { assertRecurrentTransition, isTerminal } from './recurrent-payment.status.ts';
import type { RecurrentPayment, RecurrentPaymentChanges, RecurrentPaymentFilter } from './recurrent-payment.ts';

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
type MoveArgs = [
  repos: Repositories,
  rec: RecurrentPayment,
  to: RecurrentPaymentStatus,
  changes: RecurrentPaymentChanges,
  now: number,
  action: string,
];

/** What the billing engine needs from payment orders (PaymentRenewalService, and PaymentOrderMoveService.expire). */
export interface RenewalCharger {
  /**
   * Opens the renewal order for one try of one period, or finds it when it already exists
   * (`opened: false`); undefined when it cannot be opened (its method is gone).
   */
  openRenewal(
    rec: RecurrentPayment,
    periodIndex: number,
    attempt: number,
    dueAt: number,
  ): Promise<{ order: PaymentOrder; opened: boolean } | undefined>;
  /**
   * Charges a card renewal order with the saved token (idempotent per order); `rec` is the
   * subscription as the billing run read it before opening the order.
   */
  chargeRenewal(order: PaymentOrder, token: string, rec: RecurrentPayment): Promise<PaymentOrder>;
  getRenewal(recId: string, periodIndex: number, attempt: number): Promise<PaymentOrder | undefined>;
  expire(order: PaymentOrder): Promise<PaymentOrder>;
  /** Settles an open renewal of a cancelled subscription: expired, or (a card) what its charge became. */
  withdraw(order: PaymentOrder): Promise<PaymentOrder>;
}

const BILLABLE: readonly RecurrentPaymentStatus[] = ['TRIALING', 'ACTIVE', 'UNPAID'];

/**
 * Recurrent payments: created when a SUBSCRIPTION checkout starts, activated by its first
 * payment, renewed period by period by the billing job, cancelled by the merchant or payer.
 * Every change is a compare-and-set on (status, sequence) with its event in the same transaction.
 */
export class SubscriptionService {
  private charger: RenewalCharger | null = null;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clocks: TestClocks,
    private readonly publish: (repos: Repositories, event: DomainEvent) => Promise<void>,
    private readonly options: SubscriptionOptions,
  ) {}

  /** How failed renewals are retried (SUBSCRIPTION_RETRY_DAYS, SUBSCRIPTION_CANCEL_AFTER_RETRIES), for the dashboard. */
  dunningPolicy(): { retryDays: readonly number[]; cancelWhenRetriesExhausted: boolean } {
    return { retryDays: this.options.retryDays, cancelWhenRetriesExhausted: this.options.cancelWhenRetriesExhausted };
  }

  /** Set once at wiring time (payment orders and subscriptions need each other). */
  useCharger(charger: RenewalCharger): void {
    this.charger = charger;
  }

  private now(who: { merchantId: string; mode: 'test' | 'live' }): number {
    return this.clocks.clockFor(who).now().getTime();
  }

  // ---- reading and cancelling ----------------------------------------------------------------

  async get(caller: Caller, id: string): Promise<RecurrentPayment> {
    const rec = isWellFormedId(id)
      ? await this.uow.read.recurrentPayments.get(caller.merchantId, caller.mode, id)
      : undefined;
    if (!rec) {
      throw notFound('recurrent payment');
    }
    return rec;
  }

  list(caller: Caller, page: PageRequest, filter: RecurrentPaymentFilter): Promise<Page<RecurrentPayment>> {
    return this.uow.read.recurrentPayments.list(caller.merchantId, caller.mode, page, filter);
  }

  /** DELETE /v1/recurrent_payments/{id}: cancels (no further charges) and answers the record. */
  async cancel(caller: Caller, id: string, deletedBy: string | null): Promise<RecurrentPayment> {
    return this.cancelRecord(await this.get(caller, id), deletedBy ?? 'merchant');
  }

  /** Cancellation by the payer from the signed link in their e-mails. */
  async cancelByPayer(id: string): Promise<RecurrentPayment> {
    const rec = await this.uow.read.recurrentPayments.getById(id);
    if (!rec) {
      throw notFound('recurrent payment');
    }
    return this.cancelRecord(rec, 'payer');
  }

  async getById(id: string): Promise<RecurrentPayment | undefined> {
    return isWellFormedId(id) ? this.uow.read.recurrentPayments.getById(id) : undefined;
  }

  /**
   * The payer saved another card: later renewals (and the retry of a failed one) charge it. A
   * subscription left UNPAID after its retries (SUBSCRIPTION_CANCEL_AFTER_RETRIES=false) has no
   * next date; the new card is then tried on the next billing run.
   */
  async replaceCard(
    id: string,
    token: string,
    shown: { brand: string; last4: string } | null = null,
  ): Promise<RecurrentPayment> {
    const rec = await this.uow.read.recurrentPayments.getById(id);
    if (!rec) {
      throw notFound('recurrent payment');
    }
    if (rec.paymentMethodType !== 'CARD' || isTerminal(rec.status)) {
      throw new AppError('CONFLICT', ['this subscription cannot take a new card']);
    }
    const now = this.now(rec);
    return this.uow.transaction(async (repos) => {
      const current = await repos.recurrentPayments.getById(id);
      if (!current) {
        throw notFound('recurrent payment');
      }
      const stuck = current.status === 'UNPAID' && current.nextPaymentDate === null;
      return this.move(
        repos,
        current,
        current.status,
        {
          cardToken: token,
          cardBrand: shown?.brand ?? null,
          cardLast4: shown?.last4 ?? null,
          ...(stuck ? { nextPaymentDate: now } : {}),
        },
        now,
        'updated',
      );
    });
  }

  private async cancelRecord(rec: RecurrentPayment, deletedBy: string): Promise<RecurrentPayment> {
    if (rec.status === 'CANCELED') {
      return rec;
    }
    assertRecurrentTransition(rec.status, 'CANCELED', 'canceled');
    const now = this.now(rec);
    const canceled = await this.uow.transaction(async (repos) => {
      const current = (await repos.recurrentPayments.getById(rec.id)) ?? rec;
      return this.move(
        repos,
        current,
        'CANCELED',
        { canceledAt: now, deletedBy, nextPaymentDate: null },
        now,
        'canceled',
      );
    });
    // A renewal order left open (PIX, voucher…) must not be paid after the cancellation; a card
    // renewal records what became of its charge (see PaymentRenewalService.withdraw).
    for (const order of await this.uow.read.orders.openRenewals(rec.id)) {
      await this.charger?.withdraw(order).catch(() => undefined);
    }
    return canceled;
  }

  // ---- the lifecycle, driven by the subscription's payment orders -------------------------------

  /** Inside the first order's transaction: the subscription for this checkout, made once. */
  async forCheckout(
    repos: Repositories,
    pref: CheckoutPreference,
    method: PaymentMethod,
    payer: RecurrentPayment['payer'],
    now: number,
  ): Promise<RecurrentPayment> {
    const existing = await repos.recurrentPayments.getByPreference(pref.id);
    if (existing) {
      if (existing.paymentMethodId !== method.id || existing.payer.email !== payer.email) {
        return this.move(
          repos,
          existing,
          existing.status,
          { paymentMethodId: method.id, paymentMethodType: method.type, payer },
          now,
          'updated',
        );
      }
      return existing;
    }
    const link = pref.paymentLinkId
      ? await repos.paymentLinks.get(pref.merchantId, pref.mode, pref.paymentLinkId)
      : undefined;
    // The checkout sells the version its page showed, even if the plan was edited since.
    const terms =
      link && pref.paymentLinkVersion !== null && pref.paymentLinkVersion !== link.version
        ? await repos.paymentLinks.getVersion(link.id, pref.paymentLinkVersion)
        : link;
    if (!link || !terms) {
      throw new AppError('CONFLICT', ['the subscription plan of this checkout no longer exists']);
    }
    const rec: RecurrentPayment = {
      id: newId(),
      merchantId: pref.merchantId,
      mode: pref.mode,
      paymentLinkId: link.id,
      planVersion: pref.paymentLinkVersion ?? link.version,
      checkoutPreferenceId: pref.id,
      status: 'PENDING',
      title: terms.title,
      amountMinor: terms.amountMinor,
      grossAmountMinor: terms.amountMinor,
      currency: terms.currency,
      intervalType: terms.intervalType,
      intervalCount: terms.intervalCount,
      trialIntervalType: terms.trialIntervalType,
      trialIntervalCount: terms.trialIntervalCount,
      signupFeeMinor: terms.signupFeeMinor,
      paymentMethodId: method.id,
      paymentMethodType: method.type,
      cardToken: null,
      cardBrand: null,
      cardLast4: null,
      payer,
      externalId: pref.externalId,
      anchorAt: null,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      nextPaymentDate: null,
      periodsPaid: 0,
      failedAttempts: 0,
      sequence: 1,
      createdAt: now,
      updatedAt: now,
      canceledAt: null,
      deletedBy: null,
    };
    await repos.recurrentPayments.insert(rec);
    await this.publish(repos, recurrentPaymentEvent(rec, now));
    return rec;
  }

  /** What the checkout charges: the sign-up fee, plus the first period unless there is a trial. */
  firstCharge(rec: Pick<RecurrentPayment, 'signupFeeMinor' | 'amountMinor' | 'trialIntervalCount'>): bigint {
    return rec.signupFeeMinor + (rec.trialIntervalCount > 0 ? 0n : rec.amountMinor);
  }

  /**
   * Inside the order's closing transaction. A renewal charged by the billing run brings the
   * record as that run read it (`asRead`), a moment before the charge: the update is a
   * compare-and-set on the record's sequence, so it is read again only when it changed meanwhile
   * (cancelled, or paid by another scheduler), and then decided on what is there now.
   */
  async onOrderClosed(
    repos: Repositories,
    order: PaymentOrder,
    cardToken: string | null,
    now: number,
    asRead?: RecurrentPayment,
  ): Promise<void> {
    if (asRead && asRead.id === order.recurrentPaymentId && order.periodAttempt !== null) {
      const changes = this.renewedBy(asRead, order);
      if (changes && (await this.tryMove(repos, asRead, 'ACTIVE', changes, now, 'renewed'))) {
        return;
      }
    }
    const rec = order.recurrentPaymentId ? await repos.recurrentPayments.getById(order.recurrentPaymentId) : undefined;
    if (!rec || isTerminal(rec.status)) {
      return;
    }
    if (order.periodAttempt === null) {
      const start = now - (now % 1000);
      // Brand and last 4 only, for the payer's page; the card itself stays with the processor.
      const saved =
        cardToken && order.instructions?.type === 'CARD'
          ? { cardBrand: order.instructions.brand, cardLast4: order.instructions.last4 }
          : {};
      if (rec.trialIntervalCount > 0 && rec.trialIntervalType) {
        const anchor = trialEnd(start, rec.trialIntervalType, rec.trialIntervalCount);
        await this.move(
          repos,
          rec,
          'TRIALING',
          {
            anchorAt: anchor,
            currentPeriodStart: start,
            currentPeriodEnd: anchor,
            nextPaymentDate: anchor,
            periodsPaid: 0,
            cardToken,
            ...saved,
          },
          now,
          'started',
        );
      } else {
        const first = periodBounds(start, rec.intervalType, 0);
        await this.move(
          repos,
          rec,
          'ACTIVE',
          {
            anchorAt: start,
            currentPeriodStart: first.start,
            currentPeriodEnd: first.end,
            nextPaymentDate: first.end,
            periodsPaid: 1,
            cardToken,
            ...saved,
          },
          now,
          'activated',
        );
      }
      return;
    }
    const changes = this.renewedBy(rec, order);
    if (changes) {
      await this.move(repos, rec, 'ACTIVE', changes, now, 'renewed');
    }
  }

  /** What a paid renewal order changes: null unless the record is waiting for that period. */
  private renewedBy(rec: RecurrentPayment, order: PaymentOrder): RecurrentPaymentChanges | null {
    if (isTerminal(rec.status) || order.periodIndex !== rec.periodsPaid || rec.anchorAt === null) {
      return null;
    }
    const bounds = periodBounds(rec.anchorAt, rec.intervalType, order.periodIndex);
    return {
      periodsPaid: rec.periodsPaid + 1,
      currentPeriodStart: bounds.start,
      currentPeriodEnd: bounds.end,
      nextPaymentDate: bounds.end,
      failedAttempts: 0,
    };
  }

  /** Inside the transaction that rejected or expired one of the subscription's orders. */
  async onOrderFailed(repos: Repositories, order: PaymentOrder, now: number): Promise<void> {
    const rec = order.recurrentPaymentId ? await repos.recurrentPayments.getById(order.recurrentPaymentId) : undefined;
    if (!rec || isTerminal(rec.status) || order.failureCode === 'superseded') {
      return;
    }
    if (order.periodAttempt === null) {
      const locked =
        order.paymentMethodType === 'CARD' &&
        order.status === 'REJECTED' &&
        order.checkoutPreferenceId !== null &&
        (await repos.orders.countRejectedCardOrders(order.checkoutPreferenceId)) >= this.options.maxCardDeclines;
      if (locked && (rec.status === 'PENDING' || rec.status === 'INCOMPLETE')) {
        // The checkout takes no further attempt: the first payment failed for good.
        await this.move(repos, rec, 'REJECTED', {}, now, 'rejected');
      } else if (rec.status === 'PENDING') {
        await this.move(repos, rec, 'INCOMPLETE', {}, now, 'left incomplete');
      }
      return;
    }
    if (
      order.periodIndex !== rec.periodsPaid ||
      order.periodAttempt !== rec.failedAttempts + 1 ||
      rec.anchorAt === null
    ) {
      return;
    }
    const failed = rec.failedAttempts + 1;
    const due = periodBounds(rec.anchorAt, rec.intervalType, rec.periodsPaid).start;
    const retryDay = this.options.retryDays[failed - 1];
    if (retryDay === undefined) {
      if (this.options.cancelWhenRetriesExhausted) {
        await this.move(
          repos,
          rec,
          'CANCELED',
          { failedAttempts: failed, canceledAt: now, deletedBy: 'retries_exhausted', nextPaymentDate: null },
          now,
          'canceled',
        );
      } else {
        await this.move(repos, rec, 'UNPAID', { failedAttempts: failed, nextPaymentDate: null }, now, 'left unpaid');
      }
      return;
    }
    await this.move(
      repos,
      rec,
      'UNPAID',
      { failedAttempts: failed, nextPaymentDate: Math.max(due + Math.round(retryDay * DAY_MS), now) },
      now,
      'marked unpaid',
    );
  }

  /** Subscriptions whose checkout expired before any payment: EXPIRED. */
  private async expireAbandoned(): Promise<void> {
    for (const rec of await this.uow.read.recurrentPayments.listByStatus(['PENDING', 'INCOMPLETE'], 500)) {
      const pref = await this.uow.read.preferences.getById(rec.checkoutPreferenceId);
      if (pref && pref.status === 'OPEN' && pref.expiresAt > this.now(rec)) {
        continue;
      }
      if (pref?.status === 'PAID') {
        continue;
      }
      const now = this.now(rec);
      await this.uow
        .transaction(async (repos) => {
          const current = await repos.recurrentPayments.getById(rec.id);
          if (current && (current.status === 'PENDING' || current.status === 'INCOMPLETE')) {
            await this.move(repos, current, 'EXPIRED', {}, now, 'expired');
          }
        })
        .catch(() => undefined);
    }
  }

  // ---- the billing engine ----------------------------------------------------------------------

  /**
   * Charges (cards) or opens and mails (push methods) every renewal that fell due, completes the
   * finished plans, and expires abandoned checkouts. Safe to run concurrently from several
   * processes: each (subscription, period, try) is one order by a unique index, and a period is
   * paid at most once by another; a crash leaves an OPENED order that the next run settles.
   */
  async runBilling(): Promise<number> {
    const charger = this.charger;
    if (!charger) {
      return 0;
    }
    await this.expireAbandoned();
    const base = this.clocks.system.now().getTime();
    const horizon = base + Math.max(0, ...this.clocks.advanced().map((a) => a.offsetMs)) + this.options.renewalNoticeMs;
    let actions = 0;
    // Subscriptions are billed side by side (each one's periods in order): on SQLite their
    // commits then share fsyncs (group commit), on PostgreSQL they use the pool's connections.
    const due = await this.uow.read.recurrentPayments.listDue(BILLABLE, horizon, 1000);
    await forEachConcurrently(due, this.options.billingConcurrency, async (listed) => {
      actions += await this.billPeriods(listed.id, charger);
    });
    return actions;
  }

  /** Opens and charges what one subscription owes now, period by period; the actions taken. */
  private async billPeriods(id: string, charger: RenewalCharger): Promise<number> {
    let actions = 0;
    // Catch up period by period after a clock jump, bounded per run.
    for (let step = 0; step < 240; step++) {
      const rec = await this.uow.read.recurrentPayments.getById(id);
      if (!rec || !BILLABLE.includes(rec.status) || rec.nextPaymentDate === null || rec.anchorAt === null) {
        break;
      }
      const now = this.now(rec);
      if (rec.intervalCount !== null && rec.periodsPaid >= rec.intervalCount) {
        if (now >= rec.nextPaymentDate) {
          await this.uow
            .transaction(async (repos) => {
              const current = await repos.recurrentPayments.getById(rec.id);
              if (current?.status === 'ACTIVE') {
                await this.move(repos, current, 'COMPLETE', { nextPaymentDate: null }, now, 'completed');
              }
            })
            .catch(() => undefined);
          actions++;
        }
        break;
      }
      const push = rec.paymentMethodType !== 'CARD';
      const opensAt = push ? rec.nextPaymentDate - this.options.renewalNoticeMs : rec.nextPaymentDate;
      if (now < opensAt) {
        break;
      }
      const period = rec.periodsPaid;
      const attempt = rec.failedAttempts + 1;
      // A push renewal stays open for days and is looked at on every run, so it is read first;
      // a card renewal is charged on the run that opens it, so it is opened straight away (a
      // leftover order, after a crash, is found by openRenewal instead).
      let order = push ? await charger.getRenewal(rec.id, period, attempt) : undefined;
      if (!order) {
        const opening = await charger.openRenewal(rec, period, attempt, rec.nextPaymentDate);
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
          await charger.expire(order).catch(() => undefined);
        } else {
          try {
            const charged = await charger.chargeRenewal(order, rec.cardToken, rec);
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

  // ---- one change ------------------------------------------------------------------------------

  private async move(...args: MoveArgs): Promise<RecurrentPayment> {
    const updated = await this.tryMove(...args);
    if (!updated) {
      const [, , , , , action] = args;
      throw new AppError('CONFLICT', [`recurrent payment cannot be ${action}: it changed meanwhile; retry`]);
    }
    return updated;
  }

  /** The move as a compare-and-set: undefined, and nothing written, when `rec` is no longer current. */
  private async tryMove(...[repos, rec, to, changes, now, action]: MoveArgs): Promise<RecurrentPayment | undefined> {
    if (to !== rec.status) {
      assertRecurrentTransition(rec.status, to, action);
    }
    const updated = await repos.recurrentPayments.update(rec, to, changes, now);
    if (updated && to !== rec.status) {
      await this.publish(repos, recurrentPaymentEvent(updated, now));
    }
    return updated;
  }
}
