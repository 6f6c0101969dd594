import type { RecurrentPayment } from '../subscriptions/recurrent-payment.ts';
import type { PaymentOrder } from './payment-order.ts';

/**
 * Renewals of subscriptions whose card was saved at the merchant's own processor (a Stripe
 * customer's card), implemented by CardSubscriptionService (domain/connectors/). Cards saved by
 * the built-in test processor are charged by it, as before.
 */
export interface ConnectorCardRenewals {
  /** Whether a subscription's saved card is one of a processor connection. */
  handles(cardToken: string | null): boolean;
  /** Charges the renewal order off-session (or asks what became of its charge); the order as it now is. */
  charge(order: PaymentOrder, cardToken: string, rec: RecurrentPayment): Promise<PaymentOrder>;
  /** A renewal of a cancelled subscription: closed if its charge went through, else rejected. */
  withdraw(order: PaymentOrder, rec: RecurrentPayment): Promise<PaymentOrder>;
}
