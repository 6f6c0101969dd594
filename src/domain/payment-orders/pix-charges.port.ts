import type { Mode } from '../merchants/merchant.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { PaymentOrder } from './payment-order.ts';
import type { ProcessorRefunds } from './processor-refunds.port.ts';

/**
 * The PSP's side of a PIX order when the merchant connected its API Pix (INTERFACE §11.2),
 * implemented by PixChargeService (domain/connectors/). Without a connection, PIX is the static
 * BR Code of the merchant's key, as before.
 */
export interface PixCharges extends ProcessorRefunds {
  /** The merchant's API Pix connection in `mode` (its id), or null. */
  connectionFor(merchantId: string, mode: Mode): Promise<string | null>;
  /** Inside the transaction that opens `order`: its charge, recorded to be made (so a crash after the commit still makes it). */
  record(repos: Repositories, order: PaymentOrder, connectionId: string, now: number): Promise<void>;
  /**
   * After that transaction: the charge made at the PSP and its code put on the order. When the
   * PSP cannot be reached the order comes back as it was (no code yet); the checkout page and the
   * pix-sync job try again with the same txid.
   */
  create(order: PaymentOrder): Promise<PaymentOrder>;
  /** A `devolucao` of the Pix that paid (ProcessorRefunds.refund); null for an order without a PSP charge. */
  refund(order: PaymentOrder): Promise<'REFUNDED' | 'PENDING' | null>;
}
