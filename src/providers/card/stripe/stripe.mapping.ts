import type { IntentOutcome, RefundOutcome } from '../../../domain/connectors/card-connector.ts';

/**
 * Stripe's PaymentIntent statuses and what Cobro does about each (docs.stripe.com/payments/paymentintents/lifecycle).
 * A status not listed (Stripe adds some now and then) is WAIT: an order never closes or fails on
 * a word Cobro does not know.
 */
export const PAYMENT_INTENT_OUTCOMES: Readonly<Record<string, IntentOutcome>> = {
  succeeded: 'SETTLE',
  processing: 'WAIT',
  // Not confirmed yet: the payer has the card fields in front of them.
  requires_confirmation: 'WAIT',
  // Cobro never asks for manual capture; an intent found here was made by someone else's settings.
  requires_capture: 'WAIT',
  requires_action: 'PAYER_ACTION',
  // Where a new intent starts, and where a declined try sends it back: the payer can try again.
  requires_payment_method: 'FAILED_TRY',
  canceled: 'FAILED',
};

/** Stripe's Refund statuses (docs.stripe.com/api/refunds/object#refund_object-status). */
export const REFUND_OUTCOMES: Readonly<Record<string, RefundOutcome>> = {
  succeeded: 'REFUNDED',
  pending: 'WAIT',
  requires_action: 'WAIT',
  failed: 'FAILED',
  canceled: 'FAILED',
};

export function intentOutcome(status: string): IntentOutcome {
  return PAYMENT_INTENT_OUTCOMES[status] ?? 'WAIT';
}

export function refundOutcome(status: string | null | undefined): RefundOutcome {
  return REFUND_OUTCOMES[status ?? ''] ?? 'WAIT';
}

/** The events the webhook endpoint Cobro creates subscribes to. */
export const STRIPE_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'payment_intent.processing',
  'payment_intent.requires_action',
  'charge.refunded',
  // A refund's status moving on (a pending one done or failed); named so since 2023-08-16's list has it.
  'refund.updated',
  'charge.dispute.created',
] as const;

/**
 * Stripe counts these currencies in whole units (docs.stripe.com/currencies#zero-decimal);
 * others in hundredths, except the three-decimal ones below.
 */
export const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** Counted in thousandths, and Stripe takes only multiples of ten of them (docs.stripe.com/currencies#three-decimal). */
export const THREE_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** How many decimals Stripe's `amount` has for `currency` (an ISO code, any case). */
export function stripeDecimals(currency: string): number {
  const code = currency.toUpperCase();
  return ZERO_DECIMAL_CURRENCIES.has(code) ? 0 : THREE_DECIMAL_CURRENCIES.has(code) ? 3 : 2;
}

/**
 * Cobro's integer minor units (`cobroDecimals` from the currency table) as Stripe's `amount`:
 * the same value, rescaled. Null when Stripe cannot express it exactly (a fraction of its
 * smallest unit, a three-decimal amount not a multiple of ten) or it is not a safe integer.
 */
export function toStripeAmount(amountMinor: bigint, currency: string, cobroDecimals: number): number | null {
  const shift = stripeDecimals(currency) - cobroDecimals;
  let amount: bigint;
  if (shift >= 0) {
    amount = amountMinor * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    if (amountMinor % divisor !== 0n) {
      return null;
    }
    amount = amountMinor / divisor;
  }
  if (THREE_DECIMAL_CURRENCIES.has(currency.toUpperCase()) && amount % 10n !== 0n) {
    return null;
  }
  if (amount < 0n || amount > BigInt(Number.MAX_SAFE_INTEGER)) {
    return null;
  }
  return Number(amount);
}

/** Stripe's `amount` in Cobro's minor units; null when Cobro's table has fewer decimals than the amount needs. */
export function fromStripeAmount(amount: number, currency: string, cobroDecimals: number): bigint | null {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    return null;
  }
  const shift = cobroDecimals - stripeDecimals(currency);
  const value = BigInt(amount);
  if (shift >= 0) {
    return value * 10n ** BigInt(shift);
  }
  const divisor = 10n ** BigInt(-shift);
  return value % divisor === 0n ? value / divisor : null;
}
