import type { Payer } from '../checkout-preferences/checkout-preference.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { PaymentMethodType } from '../payment-methods/payment-method.ts';
import type { Locale } from '../shared/language.ts';
import type { IntervalType } from './payment-link.ts';
import type { RecurrentPaymentStatus } from './recurrent-payment.status.ts';

/**
 * A subscription instance: what one payer bought from one plan version. The plan's terms are
 * copied at purchase, so editing the plan later never changes what an existing subscriber pays.
 */
export type RecurrentPayment = {
  id: string;
  merchantId: string;
  mode: Mode;
  paymentLinkId: string;
  planVersion: number;
  checkoutPreferenceId: string;
  status: RecurrentPaymentStatus;
  title: string;
  /** What the payer pays per period. */
  amountMinor: bigint;
  /** The plan's amount per period (equal unless payer fees apply). */
  grossAmountMinor: bigint;
  currency: string;
  intervalType: IntervalType;
  /** Number of periods; null until cancelled. */
  intervalCount: number | null;
  trialIntervalType: IntervalType | null;
  trialIntervalCount: number;
  signupFeeMinor: bigint;
  paymentMethodId: string;
  paymentMethodType: PaymentMethodType;
  /** The processor token of a saved card (never the card itself). */
  cardToken: string | null;
  /** Brand and last four digits of the saved card, for the payer's page (null before a card is saved). */
  cardBrand: string | null;
  cardLast4: string | null;
  payer: Payer;
  /** The language the payer subscribed in (the checkout's, when the first order was opened): their e-mails'. */
  language: Locale;
  externalId: string | null;
  /** Start of period 0, from which every period is computed (after the trial, if any). */
  anchorAt: number | null;
  currentPeriodStart: number | null;
  currentPeriodEnd: number | null;
  /** When the next charge (or retry, or completion) falls due. */
  nextPaymentDate: number | null;
  periodsPaid: number;
  /** Failed tries of the period now due. */
  failedAttempts: number;
  sequence: number;
  createdAt: number;
  updatedAt: number;
  canceledAt: number | null;
  deletedBy: string | null;
};

export type RecurrentPaymentChanges = Partial<
  Pick<
    RecurrentPayment,
    | 'cardToken'
    | 'cardBrand'
    | 'cardLast4'
    | 'anchorAt'
    | 'currentPeriodStart'
    | 'currentPeriodEnd'
    | 'nextPaymentDate'
    | 'periodsPaid'
    | 'failedAttempts'
    | 'canceledAt'
    | 'deletedBy'
    | 'paymentMethodId'
    | 'paymentMethodType'
    | 'payer'
    | 'language'
  >
>;

export type RecurrentPaymentFilter = { status?: RecurrentPaymentStatus; externalId?: string; paymentLinkId?: string };
