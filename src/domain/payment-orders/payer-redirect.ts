import type { CheckoutPreference } from '../checkout-preferences/checkout-preference.ts';
import type { PaymentOrder } from './payment-order.ts';

/**
 * Where the payer goes after a result: the merchant's stored URL with its own query string kept
 * and `checkout_preference_id`, `payment_order_id` and `status` added. Never a target taken from
 * the request. Null when the merchant gave no URL for this outcome (the checkout shows a result page).
 */
export function payerRedirectUrl(pref: CheckoutPreference, order: PaymentOrder): string | null {
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
  const url = new URL(stored);
  url.searchParams.set('checkout_preference_id', pref.id);
  url.searchParams.set('payment_order_id', order.id);
  url.searchParams.set('status', order.status);
  return url.toString();
}
