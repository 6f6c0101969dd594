import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { RecurrentPayment } from './recurrent-payment.ts';

/**
 * What the billing engine and cancellation need from payment orders: a renewal's order opened,
 * charged, found, expired or withdrawn. Implemented by PaymentRenewalService.
 */
export interface RenewalCharger {
  /**
   * Opens the renewal order for one try of one period, or finds it when it already exists
   * (`opened: false`); undefined when it cannot be opened (its method is gone, or cannot be offered
   * and the period is not yet due: once due, such a try is opened REJECTED and retried as any failure).
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
