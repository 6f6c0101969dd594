import type { Mode } from '../merchants/merchant.ts';
import type { PaymentMethodType } from '../payment-methods/payment-method.ts';

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
