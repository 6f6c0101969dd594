import type { Mode } from '../merchants/merchant.ts';
import type { PaymentOrderStatus } from '../payment-orders/payment-order.status.ts';
import type { PaymentOrder, PaymentOrderChanges, PaymentOrderFilter } from '../payment-orders/payment-order.ts';
import type { Page, PageRequest } from '../shared/page.ts';

export interface PaymentOrderRepository {
  insert(order: PaymentOrder): Promise<void>;
  get(merchantId: string, mode: Mode, id: string): Promise<PaymentOrder | undefined>;
  /** By id alone: checkout pages and provider notifications carry no merchant credentials. */
  getById(id: string): Promise<PaymentOrder | undefined>;
  /** The merchant's order in `mode` whose provider reference is `ref` (a processor's event names the payment, not the order). */
  getByProviderRef(merchantId: string, mode: Mode, ref: string): Promise<PaymentOrder | undefined>;
  list(merchantId: string, mode: Mode, page: PageRequest, filter: PaymentOrderFilter): Promise<Page<PaymentOrder>>;
  /** The checkout's orders still OPENED (its own, not renewals), oldest first. */
  listOpenForPreference(preferenceId: string): Promise<PaymentOrder[]>;
  /**
   * Compare-and-set: moves the order from `from` to `to` (sequence + 1) only if it is still in `from`.
   * Returns the updated order, or undefined when someone moved it first.
   */
  transition(
    id: string,
    from: PaymentOrderStatus,
    to: PaymentOrderStatus,
    changes: PaymentOrderChanges,
    at: number,
  ): Promise<PaymentOrder | undefined>;
  /** Updates non-status fields (instructions, anomaly…) of an order in `status`; sequence unchanged. */
  update(id: string, status: PaymentOrderStatus, changes: PaymentOrderChanges, at: number): Promise<boolean>;
  /** OPENED orders whose time has passed (expiry job). */
  listDueForExpiry(now: number, limit: number): Promise<PaymentOrder[]>;
  /** OPENED card orders, oldest first (the sweep that settles charges the processor left pending or a crash cut). */
  listOpenedCardOrders(limit: number): Promise<PaymentOrder[]>;
  /** Crypto orders of `mode` whose address is watched: up to `limit` OPENED (oldest first), and up to `limit` EXPIRED at or after `expiredSince` (late payments; newest first). */
  listWatchedCrypto(mode: Mode, expiredSince: number, limit: number): Promise<PaymentOrder[]>;
  countRejectedCardOrders(preferenceId: string): Promise<number>;
  /**
   * Card orders of a checkout (not a subscription's) that ended unpaid (EXPIRED or REJECTED) at or
   * after `since`, with a processor reference: their intents may still be payable at the processor.
   */
  listEndedCardOrders(since: number, limit: number): Promise<PaymentOrder[]>;
  /** The renewal order for one try of one period, if it was opened. */
  getRenewal(recurrentPaymentId: string, periodIndex: number, attempt: number): Promise<PaymentOrder | undefined>;
  /** Renewal orders still OPENED for a subscription (cancellation expires them). */
  openRenewals(recurrentPaymentId: string): Promise<PaymentOrder[]>;
}
