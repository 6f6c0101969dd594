import type { Mode } from '../merchants/merchant.ts';
import type { ConnectorProvider } from './connection.ts';

/**
 * Where the refund of a card order at its processor stands, as far as Cobro knows:
 * - PENDING: the processor took the refund and is still working on it; the order stays CLOSED
 *   until it reports the refund done (an event, the card-refund-sync job, or a retry that asks).
 * - SUCCEEDED: done; the order is REFUNDED.
 * - FAILED: the processor could not make it; the order stays CLOSED and the connection's last error says why.
 */
export type CardRefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/** Who asked for it: COBRO (the API or the dashboard) or PROCESSOR (the merchant, in the processor's own dashboard). */
export type CardRefundSource = 'COBRO' | 'PROCESSOR';

export type CardRefund = {
  orderId: string;
  connectionId: string;
  merchantId: string;
  mode: Mode;
  provider: ConnectorProvider;
  /** The refund's id at the processor; null for one Cobro only heard of through a charge's event. */
  refundId: string | null;
  status: CardRefundStatus;
  source: CardRefundSource;
  /** When the job asks about a PENDING one next (system time); NO_CHECK otherwise. */
  nextCheckAt: number;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
};

/** A dispute (chargeback) the processor reported on a card order: the money is held by the processor meanwhile. */
export type CardDispute = {
  provider: ConnectorProvider;
  disputeId: string;
  orderId: string;
  merchantId: string;
  mode: Mode;
  /** The processor's word for why (fraudulent, product_not_received, …). */
  reason: string;
  /** The processor's word for where it stands (needs_response, under_review, …). */
  status: string;
  /** In Cobro's minor units; null when the currency is not in Cobro's table. */
  amountMinor: bigint | null;
  currency: string | null;
  /** When the merchant's evidence is due at the processor; null when it did not say. */
  evidenceDueBy: number | null;
  createdAt: number;
};
