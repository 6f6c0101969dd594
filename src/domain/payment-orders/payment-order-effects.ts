import type { CheckoutPreference } from '../checkout-preferences/checkout-preference.ts';
import type { DisputePayload } from '../events/event.ts';
import type { PaymentMethod } from '../payment-methods/payment-method.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { Locale } from '../shared/language.ts';
import type { RecurrentPayment } from '../subscriptions/recurrent-payment.ts';
import type { PaymentOrder } from './payment-order.ts';

/**
 * What payment orders set off outside themselves, each inside the transaction of the order's
 * own change: the order's webhook event, what the order does to its subscription, and a renewal's
 * e-mail to the payer. PaymentOrderCore calls it; PaymentOrderEffectsService
 * (domain/subscriptions) implements it.
 */
export interface PaymentOrderEffects {
  /** A SUBSCRIPTION checkout is about to open its first order: the subscription it pays for, made once. */
  subscriptionFor(
    repos: Repositories,
    pref: CheckoutPreference,
    method: PaymentMethod,
    payer: PaymentOrder['payer'],
    language: Locale,
    now: number,
  ): Promise<RecurrentPayment>;
  /** What a subscription's checkout charges first. */
  firstCharge(rec: Pick<RecurrentPayment, 'signupFeeMinor' | 'amountMinor' | 'trialIntervalCount'>): bigint;
  /** An order was opened. */
  opened(repos: Repositories, order: PaymentOrder, now: number): Promise<void>;
  /** An order moved to another status (CLOSED, REJECTED, EXPIRED, REFUNDED); `order` as it is now. */
  moved(repos: Repositories, order: PaymentOrder, now: number): Promise<void>;
  /** The payer disputed a paid order (a chargeback); `order` as it is now (its status unchanged, its sequence the next). */
  disputed(repos: Repositories, order: PaymentOrder, dispute: DisputePayload, now: number): Promise<void>;
  /**
   * An order was paid (after `moved`). `subscriptionAsRead`: a renewal's subscription as the
   * billing run that charged it read it.
   */
  closed(
    repos: Repositories,
    order: PaymentOrder,
    cardToken: string | null,
    now: number,
    subscriptionAsRead?: RecurrentPayment,
  ): Promise<void>;
  /** A push-method renewal order was opened for `rec`: the payer is told how to pay. */
  renewalOpened(repos: Repositories, rec: RecurrentPayment, order: PaymentOrder): Promise<void>;
}
