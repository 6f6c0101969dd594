import type { Mode } from '../merchants/merchant.ts';
import type { PaymentMethodType } from '../payment-methods/payment-method.ts';
import { DAY_MS } from '../subscriptions/billing-schedule.ts';
import type { IntervalType } from '../subscriptions/payment-link.ts';
import type { RecurrentPaymentStatus } from '../subscriptions/recurrent-payment.status.ts';

/**
 * The home page's figures, for one merchant, one mode and one currency: the query, the answer
 * and what the repository counts by UTC day. What each figure counts, and when a day is sealed
 * (stored once final, see SEAL_AFTER_MS), is in docs/dashboard.md (Home).
 */

/** One UTC day in ms (the repository's SQL divides by the same 86 400 000). */
export { DAY_MS };
/**
 * How long after a UTC day ends its figures are final: the longest a checkout may stay open
 * (7 days, INTERFACE.md) plus two days for a payment still in flight at its expiry.
 */
export const SEAL_AFTER_MS = 9 * DAY_MS;
/** How long after a UTC day ends its payments, refunds and failed renewals are final (a transaction takes seconds). */
export const SETTLE_AFTER_MS = 2 * 3_600_000;
/** The longest range one overview may cover (its daily series is zero-filled). */
export const MAX_RANGE_DAYS = 732;

/** How the series is bucketed; only days for now. */
export type StatsBucket = 'day';

/** Which merchant's data, in which mode and currency. */
export type StatsScope = { merchantId: string; mode: Mode; currency: string };

/** A range of epoch milliseconds, `fromMs` included, `toMs` excluded. */
export type StatsRange = { fromMs: number; toMs: number };

export type OverviewQuery = StatsScope & StatsRange & { bucket: StatsBucket };

/** One UTC day of the daily series. */
export type DailyPoint = {
  /** Midnight UTC that starts the day, in epoch ms. */
  dayStartMs: number;
  /** Paid volume that day, minor units. */
  volumeMinor: bigint;
  /** Payments paid that day. */
  count: number;
};

/** What one payment method type brought in the range. */
export type MethodMixEntry = { type: PaymentMethodType; count: number; volumeMinor: bigint };

export type ConversionFigures = {
  /** Checkout preferences created in the range. */
  created: number;
  /** Of those, how many are paid. */
  paid: number;
  /** paid / created (0 to 1), or null when none was created. Display only: never used for money. */
  rate: number | null;
};

export type Overview = {
  merchantId: string;
  mode: Mode;
  currency: string;
  fromMs: number;
  toMs: number;
  bucket: StatsBucket;
  /** Sum of the paid orders' amounts, minor units (refunded ones included, see the module comment). */
  grossVolumeMinor: bigint;
  /** Number of paid orders. */
  paymentsPaid: number;
  conversion: ConversionFigures;
  refunds: { count: number; amountMinor: bigint };
  subscriptions: {
    /** ACTIVE + TRIALING now. */
    active: number;
    /** Of `active`, how many are TRIALING. */
    trialing: number;
  };
  /** Monthly recurring revenue of the ACTIVE subscriptions, minor units. */
  mrrMinor: bigint;
  /** The same normalisation over the TRIALING subscriptions: MRR to come when their trials end. */
  trialingMrrMinor: bigint;
  /** Renewal tries that failed in the range. */
  failedRenewals: number;
  /** One point per UTC day touched by the range, oldest first, zero-filled. */
  series: DailyPoint[];
  /** Per method type with at least one payment, largest volume first. */
  methodMix: MethodMixEntry[];
};

// ---- what the repository counts, by UTC day --------------------------------------------------

/** Paid orders of one UTC day and one method type. */
export type PaidGroup = { day: number; type: PaymentMethodType; count: number; volumeMinor: bigint };

/** Refunds made on one UTC day (`refunded_at`). */
export type RefundDay = { day: number; count: number; amountMinor: bigint };

/** Checkouts created on one UTC day, and how many of them are PAID. */
export type ConversionDay = { day: number; created: number; paid: number };

/** Paid groups, refunds and conversion of part of a range, by UTC day. */
export type DayFigures = {
  paid: PaidGroup[];
  refunds: RefundDay[];
  conversion: ConversionDay[];
  failedRenewals: FailedDay[];
};

/**
 * Which range each figure is counted over: `payments` for paid, refunds and failed renewals,
 * `checkouts` for conversion; null leaves a figure out (its list comes back empty).
 */
export type FigureRanges = { payments: StatsRange | null; checkouts: StatsRange | null };

/** Renewal tries that failed on one UTC day. */
export type FailedDay = { day: number; count: number };

/** The stored figures of one sealed day: the day's refunds and conversion, and its paid groups. */
export type SealedDay = {
  day: number;
  refunds: RefundDay;
  /** Null until the day's conversion is final ({@link SEAL_AFTER_MS}). */
  conversion: ConversionDay | null;
  failedRenewals: FailedDay;
  paid: PaidGroup[];
};

/** Subscriptions of one status and interval, with the sum of their amounts per period. */
export type SubscriptionGroup = {
  status: 'ACTIVE' | 'TRIALING';
  intervalType: IntervalType;
  count: number;
  grossAmountMinor: bigint;
};

/** Subscriptions of one plan in one status and interval type, with the sum of their amounts per period. */
export type PlanSubscriptionGroup = {
  paymentLinkId: string;
  status: RecurrentPaymentStatus;
  intervalType: IntervalType;
  count: number;
  grossAmountMinor: bigint;
};

/** One plan's subscribers and recurring revenue, in the plan's currency (a plan's currency never changes). */
export type PlanFigures = {
  paymentLinkId: string;
  /** ACTIVE + TRIALING now, as the home page counts active subscriptions. */
  subscribers: number;
  /** Every status the plan's subscriptions are in now (absent: none). */
  byStatus: Partial<Record<RecurrentPaymentStatus, number>>;
  /** MRR of the plan's ACTIVE subscriptions ({@link monthlyRecurringRevenueMinor}). */
  mrrMinor: bigint;
  /** The same over its TRIALING subscriptions: MRR to come when their trials end. */
  trialingMrrMinor: bigint;
};

/** At most this many plans per {@link DashboardStatsService.planFigures} call (a page of a list). */
export const MAX_PLANS_PER_QUERY = 200;
