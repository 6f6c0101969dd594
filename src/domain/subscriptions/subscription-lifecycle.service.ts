import type { CheckoutPreference } from '../checkout-preferences/checkout-preference.ts';
import { recurrentPaymentEvent } from '../events/event.ts';
import type { PaymentMethod } from '../payment-methods/payment-method.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Locale } from '../shared/language.ts';
import { DAY_MS, periodBounds, trialEnd } from './billing-schedule.ts';
import { isTerminal } from './recurrent-payment.status.ts';
import type { RecurrentPayment, RecurrentPaymentChanges } from './recurrent-payment.ts';
import type { SubscriptionCore } from './subscription.core.ts';

/**
 * What a subscription's payment orders do to it, inside their own transactions: the first
 * order makes the subscription, its payment starts it (TRIALING or ACTIVE), a paid renewal moves
 * it a period on, a failed one marks it UNPAID with its next try, or ends it.
 */
export class SubscriptionLifecycleService {
  constructor(private readonly core: SubscriptionCore) {}

  /** Inside the first order's transaction: the subscription for this checkout, made once. */
  async forCheckout(
    repos: Repositories,
    pref: CheckoutPreference,
    method: PaymentMethod,
    payer: RecurrentPayment['payer'],
    language: Locale,
    now: number,
  ): Promise<RecurrentPayment> {
    const existing = await repos.recurrentPayments.getByPreference(pref.id);
    if (existing) {
      // Another try at the first payment with another method or payer: the latest try's, its page's
      // language too (the language alone changes nothing the merchant sees, so it sets off no event).
      if (existing.paymentMethodId !== method.id || existing.payer.email !== payer.email) {
        return this.core.move(
          repos,
          existing,
          existing.status,
          { paymentMethodId: method.id, paymentMethodType: method.type, payer, language },
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
      language,
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
    await this.core.events.publish(repos, recurrentPaymentEvent(rec, now));
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
      if (changes && (await this.core.tryMove(repos, asRead, 'ACTIVE', changes, now, 'renewed'))) {
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
        await this.core.move(
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
        await this.core.move(
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
      await this.core.move(repos, rec, 'ACTIVE', changes, now, 'renewed');
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
        (await repos.orders.countRejectedCardOrders(order.checkoutPreferenceId)) >= this.core.options.maxCardDeclines;
      if (locked && (rec.status === 'PENDING' || rec.status === 'INCOMPLETE')) {
        // The checkout takes no further attempt: the first payment failed for good.
        await this.core.move(repos, rec, 'REJECTED', {}, now, 'rejected');
      } else if (rec.status === 'PENDING') {
        await this.core.move(repos, rec, 'INCOMPLETE', {}, now, 'left incomplete');
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
    const retryDay = this.core.options.retryDays[failed - 1];
    if (retryDay === undefined) {
      if (this.core.options.cancelWhenRetriesExhausted) {
        await this.core.move(
          repos,
          rec,
          'CANCELED',
          { failedAttempts: failed, canceledAt: now, deletedBy: 'retries_exhausted', nextPaymentDate: null },
          now,
          'canceled',
        );
      } else {
        await this.core.move(
          repos,
          rec,
          'UNPAID',
          { failedAttempts: failed, nextPaymentDate: null },
          now,
          'left unpaid',
        );
      }
      return;
    }
    await this.core.move(
      repos,
      rec,
      'UNPAID',
      { failedAttempts: failed, nextPaymentDate: Math.max(due + Math.round(retryDay * DAY_MS), now) },
      now,
      'marked unpaid',
    );
  }
}
