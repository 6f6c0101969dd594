import type {
  ConversionDay,
  DayFigures,
  FigureRanges,
  PlanSubscriptionGroup,
  SealedDay,
  StatsScope,
  SubscriptionGroup,
} from '../dashboard/stats.ts';
import type { Mode } from '../merchants/merchant.ts';

/**
 * Aggregates computed by the database (SUM, COUNT, GROUP BY); no method returns per-order rows.
 * Every method is scoped to one merchant, mode and currency.
 */
export interface DashboardStatsRepository {
  /**
   * The range's figures by UTC day, in one statement (each round trip costs more than these
   * index ranges on PostgreSQL): `paid`, orders closed in the range with a positive amount by day
   * of `closed_at` and method type; `refunds`, orders refunded in the range by day of
   * `refunded_at`; `conversion`, preferences created in the range and how many of them are PAID,
   * by day of creation; `failedRenewals`, renewal orders that failed in the range (see the module
   * comment) by day of failure. Days with nothing are absent.
   */
  dayFigures(scope: StatsScope, ranges: FigureRanges): Promise<DayFigures>;
  /** The stored sealed days among days `fromDay` (included) to `toDay` (excluded). */
  sealedDays(scope: StatsScope, fromDay: number, toDay: number): Promise<SealedDay[]>;
  /** Stores sealed days; a day already stored is left as it is (its figures are the same). */
  saveSealedDays(scope: StatsScope, days: readonly SealedDay[], sealedAtMs: number): Promise<void>;
  /** Fills in the final conversion of stored days that have none yet. */
  sealConversion(scope: StatsScope, days: readonly ConversionDay[]): Promise<void>;
  /** ACTIVE and TRIALING recurrent payments, grouped by status and interval type. */
  liveSubscriptions(scope: StatsScope): Promise<SubscriptionGroup[]>;
  /** Currencies of the merchant's checkout preferences in this mode, sorted. */
  currencies(merchantId: string, mode: Mode): Promise<string[]>;
  /**
   * Recurrent payments of these plans (every status), grouped by plan, status and interval type
   * (the interval of the version each one was sold on), with the sum of their amounts per period.
   */
  subscriptionsByPlan(
    merchantId: string,
    mode: Mode,
    paymentLinkIds: readonly string[],
  ): Promise<PlanSubscriptionGroup[]>;
}
