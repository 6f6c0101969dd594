import type { Repositories } from '../repositories/repositories.ts';
import type { PaymentOrder } from './payment-order.ts';

/**
 * A processor that took an order's money through the merchant's own account and gives it back
 * (a card connector such as Stripe: CardRefundService; the PSP of an API Pix connection:
 * PixChargeService). PaymentOrderMoveService asks each in turn; the first that answers non-null
 * refunded the order.
 */
export interface ProcessorRefunds {
  /**
   * Refunds a paid order in full through the processor, with an id fixed by the order so a retry
   * never refunds twice: REFUNDED when the processor says it is done (the caller moves the order),
   * PENDING when it is being processed (the order moves when it is); null for an order this
   * processor did not take. Throws AppError: SERVICE_UNAVAILABLE when the processor cannot be
   * reached (nothing changed), CONFLICT when it refuses.
   */
  refund(order: PaymentOrder): Promise<'REFUNDED' | 'PENDING' | null>;
  /** Inside the transaction that moves the order to REFUNDED after refund() said so: what the processor's side records with it. */
  refunded?(repos: Repositories, order: PaymentOrder): Promise<void>;
}
