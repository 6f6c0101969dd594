import type { PixCharge, PixChargeState } from '../connectors/pix-charge.ts';

export type PixChargeChanges = Partial<
  Pick<PixCharge, 'state' | 'endToEndId' | 'refundId' | 'nextCheckAt' | 'lastError'>
>;

/** PIX orders' charges at their merchants' PSPs (API Pix), one per order. */
export interface PixChargeRepository {
  insert(charge: PixCharge): Promise<void>;
  get(orderId: string): Promise<PixCharge | undefined>;
  /** The charge of a connection with this txid (a notification names charges by txid). */
  getByTxid(connectionId: string, txid: string): Promise<PixCharge | undefined>;
  /** Charges in `states` whose next check is due at `now`, the most overdue first. */
  listDue(now: number, states: readonly PixChargeState[], limit: number): Promise<PixCharge[]>;
  /**
   * Takes a due charge for one run: its next check moves to `until` only if it is still
   * `expectedNextCheckAt` (so two workers never work on one charge at once). False when another took it.
   */
  claim(orderId: string, expectedNextCheckAt: number, until: number): Promise<boolean>;
  update(orderId: string, changes: PixChargeChanges, at: number): Promise<void>;
  /** The order ended: its charge, if it has one, is due at once (to be removed at the PSP). */
  dueNow(orderId: string): Promise<void>;
}
