import type { Mode } from '../merchants/merchant.ts';
import type { Page, PageRequest } from '../shared/page.ts';

export type IntervalType = 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';
export const INTERVAL_TYPES: readonly IntervalType[] = ['DAY', 'WEEK', 'MONTH', 'YEAR'];

export type PaymentLinkStatus = 'ACTIVE' | 'ARCHIVED';

/**
 * A subscription definition (the `payment_link_id` of a SUBSCRIPTION preference): what a
 * subscriber pays per period, for how many periods, with an optional trial and sign-up fee.
 */
export type PaymentLink = {
  id: string;
  merchantId: string;
  mode: Mode;
  title: string;
  amountMinor: bigint;
  currency: string;
  intervalType: IntervalType;
  /** Number of periods the subscription runs; null when it runs until cancelled. */
  intervalCount: number | null;
  trialIntervalType: IntervalType | null;
  trialIntervalCount: number;
  signupFeeMinor: bigint;
  externalId: string | null;
  status: PaymentLinkStatus;
  version: number;
  createdAt: number;
  updatedAt: number;
};

export interface PaymentLinkRepository {
  insert(link: PaymentLink): Promise<void>;
  get(merchantId: string, mode: Mode, id: string): Promise<PaymentLink | undefined>;
  list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: { status?: PaymentLinkStatus },
  ): Promise<Page<PaymentLink>>;
  setStatus(merchantId: string, mode: Mode, id: string, status: PaymentLinkStatus, at: number): Promise<void>;
}
