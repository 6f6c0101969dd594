import type { Mode } from '../merchants/merchant.ts';

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

/** What a subscriber buys: the terms a plan version fixes (and a recurrent payment copies). */
export type PlanTerms = Pick<
  PaymentLink,
  | 'title'
  | 'amountMinor'
  | 'currency'
  | 'intervalType'
  | 'intervalCount'
  | 'trialIntervalType'
  | 'trialIntervalCount'
  | 'signupFeeMinor'
>;

/** A superseded version of a plan, kept so checkouts opened before an edit sell what they showed. */
export type PaymentLinkVersion = PlanTerms & {
  paymentLinkId: string;
  version: number;
  /** When this version took effect. */
  createdAt: number;
  /** When the next version replaced it. */
  supersededAt: number;
};
