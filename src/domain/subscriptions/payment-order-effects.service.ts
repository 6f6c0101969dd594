import type { DisputePayload } from '../events/event.ts';
import { paymentOrderDisputedEvent, paymentOrderEvent } from '../events/event.ts';
import type { EventPublisher } from '../events/event-publisher.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { PaymentOrderEffects } from '../payment-orders/payment-order-effects.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { RecurrentPayment } from './recurrent-payment.ts';
import type { RenewalMailer } from './renewal-mail.ts';
import type { SubscriptionLifecycleService } from './subscription-lifecycle.service.ts';

/**
 * What follows a payment order's change: its event goes to the outbox (EventPublisher, the
 * webhooks), a subscription's order moves its subscription (SubscriptionLifecycleService), and
 * a push renewal is mailed to the payer (RenewalMailer).
 */
export class PaymentOrderEffectsService implements PaymentOrderEffects {
  constructor(
    private readonly events: EventPublisher,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly renewalMail: RenewalMailer,
  ) {}

  subscriptionFor(...args: Parameters<PaymentOrderEffects['subscriptionFor']>): Promise<RecurrentPayment> {
    return this.lifecycle.forCheckout(...args);
  }

  firstCharge(rec: Pick<RecurrentPayment, 'signupFeeMinor' | 'amountMinor' | 'trialIntervalCount'>): bigint {
    return this.lifecycle.firstCharge(rec);
  }

  opened(repos: Repositories, order: PaymentOrder, now: number): Promise<void> {
    return this.events.publish(repos, paymentOrderEvent(order, now));
  }

  /** A failed order of a subscription first moves the subscription, whose event then comes before the order's. */
  async moved(repos: Repositories, order: PaymentOrder, now: number): Promise<void> {
    if (order.recurrentPaymentId && (order.status === 'REJECTED' || order.status === 'EXPIRED')) {
      await this.lifecycle.onOrderFailed(repos, order, now);
    }
    await this.events.publish(repos, paymentOrderEvent(order, now));
  }

  async disputed(repos: Repositories, order: PaymentOrder, dispute: DisputePayload, now: number): Promise<void> {
    await this.events.publish(repos, paymentOrderDisputedEvent(order, dispute, now));
  }

  async closed(
    repos: Repositories,
    order: PaymentOrder,
    cardToken: string | null,
    now: number,
    subscriptionAsRead?: RecurrentPayment,
  ): Promise<void> {
    if (order.recurrentPaymentId) {
      await this.lifecycle.onOrderClosed(repos, order, cardToken, now, subscriptionAsRead);
    }
  }

  renewalOpened(repos: Repositories, rec: RecurrentPayment, order: PaymentOrder): Promise<void> {
    return this.renewalMail.queue(repos, rec, order);
  }
}
