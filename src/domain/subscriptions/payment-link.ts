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

export interface PaymentLinkRepository {
  insert(link: PaymentLink): Promise<void>;
  get(merchantId: string, mode: Mode, id: string): Promise<PaymentLink | undefined>;
  /** By id alone, whoever owns it: only for the public plan link `/l/{id}`, where the id is the link. */
  getById(id: string): Promise<PaymentLink | undefined>;
  list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: { status?: PaymentLinkStatus },
  ): Promise<Page<PaymentLink>>;
  setStatus(merchantId: string, mode: Mode, id: string, status: PaymentLinkStatus, at: number): Promise<void>;
  /**
   * Compare-and-set on the version: writes `terms` as version `current.version + 1` only if the
   * row is still at `current.version` and ACTIVE. Returns the new row, or undefined.
   */
  updateTerms(
    current: Pick<PaymentLink, 'id' | 'merchantId' | 'mode' | 'version'>,
    terms: PlanTerms,
    at: number,
  ): Promise<PaymentLink | undefined>;
  insertVersion(version: PaymentLinkVersion): Promise<void>;
  getVersion(paymentLinkId: string, version: number): Promise<PaymentLinkVersion | undefined>;
}
