import type { CardDispute, CardRefund, CardRefundStatus } from '../connectors/card-refund.ts';

export type CardRefundChanges = Partial<Pick<CardRefund, 'refundId' | 'status' | 'nextCheckAt' | 'lastError'>>;

/** Card orders' refunds at their merchants' processors, one per order. */
export interface CardRefundRepository {
  /** False when the order already has one (kept as it was). */
  insert(refund: CardRefund): Promise<boolean>;
  get(orderId: string): Promise<CardRefund | undefined>;
  /** Refunds in `status` whose next check is due at `now`, the most overdue first. */
  listDue(now: number, status: CardRefundStatus, limit: number): Promise<CardRefund[]>;
  /** Moves the refund only if it is still in `from`; false when someone moved it first. */
  update(orderId: string, from: CardRefundStatus, changes: CardRefundChanges, at: number): Promise<boolean>;
}

/** Disputes the processors reported on card orders. */
export interface CardDisputeRepository {
  /** False when this dispute was recorded before (kept as it was). */
  insert(dispute: CardDispute): Promise<boolean>;
  listForOrder(orderId: string): Promise<CardDispute[]>;
}
