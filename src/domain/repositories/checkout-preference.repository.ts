import type { CheckoutPreference, PreferenceFilter } from '../checkout-preferences/checkout-preference.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { Page, PageRequest } from '../shared/page.ts';

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
