import type { CheckoutPreference } from '../checkout-preferences/checkout-preference.ts';
import type { PaymentOrder } from './payment-order.ts';

/**
 * Where the payer goes after a result: the merchant's stored URL with its own query string kept
 * and `checkout_preference_id`, `payment_order_id` and `status` added. Never a target taken from
 * the request. Null when the merchant gave no URL for this outcome (the checkout shows a result page).
 */
export function payerRedirectUrl(pref: CheckoutPreference, order: PaymentOrder): string | null {
  if (order.status === 'EXPIRED' && order.failureCode === 'superseded') {
    // The payer chose another method; the checkout is still open, so this is not a failure to report.
    return null;
  }
  const success = order.status === 'CLOSED';
  const failed = order.status === 'REJECTED' || order.status === 'EXPIRED';
  const stored = success
    ? pref.customUrls.successPaymentRedirect
    : failed
      ? pref.customUrls.errorPaymentRedirect
      : null;
  if (!stored) {
    return null;
  }
  // Appended as text so the merchant's own query string stays byte for byte as stored.
  const hashAt = stored.indexOf('#');
  const base = hashAt === -1 ? stored : stored.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : stored.slice(hashAt);
  const ours = new URLSearchParams({
    checkout_preference_id: pref.id,
    payment_order_id: order.id,
    status: order.status,
  }).toString();
  const separator = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${separator}${ours}${fragment}`;
}
