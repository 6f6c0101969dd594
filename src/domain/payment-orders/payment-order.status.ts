import type { ProviderStatus } from '../payment-methods/provider-status.ts';
import { AppError } from '../shared/errors.ts';

export type PaymentOrderStatus = 'OPENED' | 'CLOSED' | 'REJECTED' | 'EXPIRED' | 'REFUNDED';

export const PAYMENT_ORDER_STATUSES: readonly PaymentOrderStatus[] = [
  'OPENED',
  'CLOSED',
  'REJECTED',
  'EXPIRED',
  'REFUNDED',
];

/** Amount anomalies are a second axis, never more statuses (BTCPay's InvoiceExceptionStatus). */
export type PaymentAnomaly = 'NONE' | 'UNDERPAID' | 'OVERPAID' | 'PAID_LATE';

const NEXT: Record<PaymentOrderStatus, readonly PaymentOrderStatus[]> = {
  OPENED: ['CLOSED', 'REJECTED', 'EXPIRED'],
  CLOSED: ['REFUNDED'],
  REJECTED: [],
  EXPIRED: [],
  REFUNDED: [],
};

export const canTransition = (from: PaymentOrderStatus, to: PaymentOrderStatus): boolean => NEXT[from].includes(to);

export const isTerminal = (s: PaymentOrderStatus): boolean => NEXT[s].length === 0;

/** Throws CONFLICT naming the action, the current status and the statuses it could start from. */
export function assertTransition(from: PaymentOrderStatus, to: PaymentOrderStatus, action: string): void {
  if (!canTransition(from, to)) {
    const expected = (Object.keys(NEXT) as PaymentOrderStatus[]).filter((s) => NEXT[s].includes(to));
    throw new AppError('CONFLICT', [
      `payment order cannot be ${action}: status is ${from}, expected ${expected.join(' or ') || 'none'}`,
    ]);
  }
}

export function fromProviderStatus(s: ProviderStatus): PaymentOrderStatus {
  switch (s) {
    case 'PAID':
      return 'CLOSED';
    case 'FAILED':
      return 'REJECTED';
    case 'EXPIRED':
      return 'EXPIRED';
    case 'PENDING':
    case 'REQUIRES_ACTION':
      return 'OPENED';
  }
}
