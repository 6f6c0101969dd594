import type { Mode } from '../merchants/merchant.ts';
import type { PaymentMethodType } from '../payment-methods/payment-method.ts';
import type { Page, PageRequest } from '../shared/page.ts';

export type PreferenceType = 'PAYMENT' | 'SUBSCRIPTION';
export type PreferenceStatus = 'OPEN' | 'PAID' | 'EXPIRED';
export type PreferenceOrigin = 'API' | 'PAYMENT_LINK';

export type Payer = {
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  /** `+` and 8–15 digits. */
  phoneNumber: string | null;
};

export type CustomUrls = {
  statusChangesWebhook: string | null;
  successPaymentRedirect: string | null;
  errorPaymentRedirect: string | null;
};

export type CheckoutPreference = {
  id: string;
  merchantId: string;
  mode: Mode;
  type: PreferenceType;
  status: PreferenceStatus;
  amountMinor: bigint;
  currency: string;
  title: string;
  origin: PreferenceOrigin;
  originId: string | null;
  externalId: string | null;
  paymentLinkId: string | null;
  /** The plan version a SUBSCRIPTION checkout sells (its page showed these terms); null otherwise. */
  paymentLinkVersion: number | null;
  payer: Payer;
  paymentMethodTypes: PaymentMethodType[] | null;
  selectedPaymentMethodId: string | null;
  customUrls: CustomUrls;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
  paymentOrderId: string | null;
};

/**
 * The status a reader must see: an OPEN preference whose time has passed is EXPIRED even
 * before the expiry job has written it, so no caller ever acts on a stale OPEN.
 */
export function effectiveStatus(
  pref: Pick<CheckoutPreference, 'status' | 'expiresAt'>,
  nowMs: number,
): PreferenceStatus {
  return pref.status === 'OPEN' && nowMs >= pref.expiresAt ? 'EXPIRED' : pref.status;
}

export type PreferenceFilter = {
  status?: PreferenceStatus;
  type?: PreferenceType;
  externalId?: string;
  createdGte?: number;
  createdLt?: number;
  /** Preferences whose latest payment order used this method type (dashboard filter; the API does not offer it). */
  paymentMethodType?: PaymentMethodType;
  /** The payer's e-mail, given by the merchant or typed on one of its orders, without regard to case (dashboard filter). */
  payerEmail?: string;
  /** The caller's now, so an OPEN row past its expiry filters as EXPIRED. */
  now?: number;
};

export interface CheckoutPreferenceRepository {
  insert(pref: CheckoutPreference): Promise<void>;
  get(merchantId: string, mode: Mode, id: string): Promise<CheckoutPreference | undefined>;
  list(merchantId: string, mode: Mode, page: PageRequest, filter: PreferenceFilter): Promise<Page<CheckoutPreference>>;
  /** By id alone: the id is the payer's capability on the hosted checkout. */
  getById(id: string): Promise<CheckoutPreference | undefined>;
  /** Takes the card-charge lock if the preference is OPEN and nobody holds it; true when taken. */
  claimCharging(id: string, orderId: string, until: number, now: number): Promise<boolean>;
  releaseCharging(id: string, orderId: string): Promise<void>;
  /** OPEN → PAID, compare-and-set, releasing the card-charge lock if `orderId` holds it; false when it was not OPEN. */
  markPaid(id: string, orderId: string, at: number): Promise<boolean>;
  setLatestOrder(id: string, orderId: string, at: number): Promise<void>;
  /** Whether any OPEN preference expires at or before `horizon` (a read, for the expiry job's idle ticks). */
  anyDue(horizon: number): Promise<boolean>;
  /** Persists EXPIRED on OPEN preferences past their time; returns how many. */
  expireDue(
    now: number,
    scope: { mode: Mode; merchantId?: string; excludeMerchants?: string[] },
    limit: number,
  ): Promise<number>;
}
