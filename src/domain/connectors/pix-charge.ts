import type { Mode } from '../merchants/merchant.ts';

/**
 * Where a PIX order's charge at its merchant's PSP stands, as far as Cobro knows (the pix-sync
 * job moves each along; domain/connectors/pix-charge.service.ts):
 * - CREATING: the order is stored; `PUT /cob/{txid}` has not been confirmed yet (a crash, a PSP
 *   outage): the same txid is put again until the PSP answers.
 * - ACTIVE: the charge is at the PSP and its code on the order; checked until it is paid.
 * - REMOVING: the order ended unpaid; the charge is to be removed so no one can pay it.
 * - SETTLED: paid in full (the order closed, or was recorded as paid late).
 * - PARTIAL: the PSP concluded it with less than the charge (recorded UNDERPAID on the order).
 * - MISMATCH: the PSP's charge is not the order's (another amount); nothing settled, the connection's last error says why.
 * - REMOVED: removed at the PSP (or gone there) without a payment.
 * - REFUNDING: a refund (`devolucao`) was asked for; followed until DEVOLVIDO.
 * - REFUNDED: the PSP reported DEVOLVIDO and the order is REFUNDED.
 */
export type PixChargeState =
  | 'CREATING'
  | 'ACTIVE'
  | 'REMOVING'
  | 'SETTLED'
  | 'PARTIAL'
  | 'MISMATCH'
  | 'REMOVED'
  | 'REFUNDING'
  | 'REFUNDED';

/** The states the pix-sync job still has work in. */
export const PIX_CHARGE_OPEN_STATES: readonly PixChargeState[] = ['CREATING', 'ACTIVE', 'REMOVING', 'REFUNDING'];

export type PixCharge = {
  orderId: string;
  connectionId: string;
  merchantId: string;
  mode: Mode;
  txid: string;
  state: PixChargeState;
  /** The Pix that paid it (and that a refund returns). */
  endToEndId: string | null;
  /** The refund's id at the PSP, once asked for. */
  refundId: string | null;
  /** When the job looks at it next (system time); far in the future once nothing is left to do. */
  nextCheckAt: number;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
};

/** Never: what a finished charge's next check is. */
export const NO_CHECK = Number.MAX_SAFE_INTEGER;

/** The charge's txid at the PSP: fixed by the order (26–35 letters and digits), so a retry never makes a second charge. */
export function pixTxid(orderId: string): string {
  return `cobro${orderId}`;
}

/** The refund's id at the PSP (1–35 letters and digits): fixed by the order, so a retry never refunds twice. */
export function pixRefundId(orderId: string): string {
  return `cobrorf${orderId}`;
}
