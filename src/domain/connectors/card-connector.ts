import type { Mode } from '../merchants/merchant.ts';
import type { Money } from '../shared/money.ts';
import type { ConnectorProvider } from './connection.ts';

/**
 * What Cobro does about a processor's payment status, whatever the processor calls it (each
 * connector maps its own statuses to these as data):
 * - SETTLE: the money is taken; the order may close (after its amount and currency are checked).
 * - WAIT: the processor is still working on it (or it needs no one's action yet).
 * - PAYER_ACTION: the payer must act (3-D Secure); the order stays open.
 * - FAILED_TRY: this try failed (or none was made yet); the order stays open and the payer can try again.
 * - FAILED: the payment can no longer succeed (canceled).
 */
export type IntentOutcome = 'SETTLE' | 'WAIT' | 'PAYER_ACTION' | 'FAILED_TRY' | 'FAILED';

/** What Cobro does about a refund's status: REFUNDED when done, WAIT while pending, FAILED otherwise. */
export type RefundOutcome = 'REFUNDED' | 'WAIT' | 'FAILED';

/** A payment at the processor (Stripe: a PaymentIntent), in Cobro's terms. */
export type IntentView = {
  id: string;
  /** The processor's own status word, kept for the record. */
  status: string;
  outcome: IntentOutcome;
  /** In Cobro's minor units of the currency table; null when the currency is not in the table. */
  amount: Money | null;
  /** What the processor says it received (0 until it settles), in the same units; null as above. */
  received: Money | null;
  /** Handed to the payer's browser to mount the card fields; never logged. */
  clientSecret: string | null;
  /** From the intent's metadata: the Cobro order and checkout it pays, when Cobro created it. */
  orderId: string | null;
  preferenceId: string | null;
  /** Why the last try failed, as the processor put it (a decline code and its message). */
  failure: { code: string; message: string } | null;
  /** The card the intent was paid (or tried) with, at the processor; null until there is one. */
  paymentMethodId?: string | null;
  /** The processor's customer the intent belongs to (a subscriber), or null. */
  customerId?: string | null;
  /** Brand and last four digits of that card, when the processor gave them with the intent. */
  card?: { brand: string; last4: string } | null;
};

/** A renewal charged without the payer (Stripe: off_session, confirm), with the card kept for the subscription. */
export type SavedCardChargeInput = {
  orderId: string;
  preferenceId: string | null;
  amount: Money;
  description: string;
  customerId: string;
  paymentMethodId: string;
  /** Fixed by (subscription, period, attempt): whatever the retries, one charge per try. */
  idempotencyKey: string;
};

export type RefundView = { id: string; status: string; outcome: RefundOutcome; intentId: string | null };

/** A charge a charge.* event is about: whether it was refunded in full, and how much was. */
export type ChargeView = {
  id: string;
  intentId: string | null;
  /** True once the whole charge was refunded (some of it may still be pending at the processor). */
  fullyRefunded: boolean;
  /** In Cobro's minor units; null when the currency is not in Cobro's table. */
  amount: Money | null;
  refunded: Money | null;
  /** The charge's refunds as far as the event carries them (ids only). */
  refundIds: string[];
};

/** A dispute (chargeback) a charge.dispute.* event is about. */
export type DisputeView = {
  id: string;
  intentId: string | null;
  reason: string;
  status: string;
  /** In Cobro's minor units; null when the currency is not in Cobro's table. */
  amount: Money | null;
  /** When the merchant's evidence is due (epoch milliseconds), when the processor says. */
  evidenceDueBy: number | null;
};

/** A verified event from the processor, in Cobro's terms. */
export type ConnectorEvent = {
  id: string;
  type: string;
  livemode: boolean;
  /** The payment it is about, when it is about one (payment_intent.* events). */
  intent: IntentView | null;
  /** The payment a charge, refund or dispute event is about, by the processor's id. */
  intentId: string | null;
  /** charge.* events (charge.refunded). */
  charge?: ChargeView | null;
  /** refund.* events. */
  refund?: RefundView | null;
  /** charge.dispute.* events. */
  dispute?: DisputeView | null;
};

export type CreateIntentInput = {
  orderId: string;
  preferenceId: string | null;
  amount: Money;
  /** Shown to the merchant in the processor's dashboard. */
  description: string;
  /** A subscription's first payment keeps the card for its renewals (Stripe: setup_future_usage=off_session). */
  saveCardFor: { customerId: string } | null;
};

/**
 * Why a processor call failed: AUTH (the key is wrong or revoked), UNAVAILABLE (no answer, a
 * timeout, a 5xx: it may work later), REJECTED (the processor refused the request as given),
 * NOT_FOUND (it has no such object). Messages never hold a key.
 */
export class ConnectorError extends Error {
  constructor(
    readonly kind: 'AUTH' | 'UNAVAILABLE' | 'REJECTED' | 'NOT_FOUND',
    message: string,
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}

/**
 * A card processor reached through the merchant's own account: the port each card connector
 * (providers/card/<name>/) implements. Every call is given the merchant's secret key; the
 * connector keeps nothing. Calls that create something carry an idempotency key fixed by what
 * they are for (the order, the connection), so a retry, or a process that died between the call
 * and storing its answer, gets the same object back and never a second one.
 */
export interface CardConnector {
  readonly provider: ConnectorProvider;
  /**
   * The mode a pair of keys belongs to, or why they cannot be used (malformed, or of two
   * modes). Pure: no call. Messages never repeat a key.
   */
  keysMode(secretKey: string, publishableKey: string): { ok: true; mode: Mode } | { ok: false; message: string };
  /** Whether `secret` has the form of a webhook signing secret of this processor. */
  isWebhookSecret(secret: string): boolean;
  /** Checks the key with one real call; the account's id and display name. */
  account(secretKey: string): Promise<{ id: string; name: string | null }>;
  /** Creates the endpoint the processor sends events to; its signing secret comes back once. */
  createWebhookEndpoint(
    secretKey: string,
    input: { url: string; idempotencyKey: string; merchantId: string },
  ): Promise<{ id: string; secret: string }>;
  /** Deletes it; one already gone counts as deleted. */
  deleteWebhookEndpoint(secretKey: string, endpointId: string): Promise<void>;
  /**
   * The event in `rawBody` if `signature` proves the processor sent it with `secret` recently
   * (the bytes as received, before any parsing); null otherwise.
   */
  verifyEvent(rawBody: Buffer, signature: string | undefined, secret: string): ConnectorEvent | null;
  createIntent(secretKey: string, input: CreateIntentInput): Promise<IntentView>;
  retrieveIntent(secretKey: string, intentId: string): Promise<IntentView>;
  /**
   * Cancels an intent that can no longer pay anything of Cobro's (its order expired or was
   * superseded), so a page left open cannot pay it. REJECTED when the processor says it is past
   * canceling (it succeeded, or was canceled already): retrieve it to see which.
   */
  cancelIntent(secretKey: string, intentId: string): Promise<IntentView>;
  /** A full refund of the intent, keyed by the order so a retry never refunds twice. */
  createRefund(secretKey: string, input: { orderId: string; intentId: string }): Promise<RefundView>;
  /**
   * Charges a saved card without the payer. A decline or a card that needs the payer
   * (authentication_required) is not an error: the intent comes back with its failure.
   * UNAVAILABLE when no answer came (retry with the same key); REJECTED when the processor
   * answered an error it keeps under the key (the try is over) and made no intent for the order.
   */
  chargeSavedCard(secretKey: string, input: SavedCardChargeInput): Promise<IntentView>;
  /** The intent made for an order among a customer's, or null: what became of a charge whose answer was lost. */
  findCustomerIntent(secretKey: string, customerId: string, orderId: string): Promise<IntentView | null>;
  /** The intent with the card it was paid with (brand, last four), for a subscription's saved card. */
  retrieveIntentWithCard(secretKey: string, intentId: string): Promise<IntentView>;
  /** A refund as the processor has it now (a pending one is asked again until it is done). */
  retrieveRefund(secretKey: string, refundId: string): Promise<RefundView>;
  /** Whether `ref` (an order's provider reference) has the form of this processor's payment id. Pure: no call. */
  isPaymentRef(ref: string): boolean;
  /** A customer at the processor for a subscriber, keyed by the subscription (its saved card hangs on it). */
  createCustomer(
    secretKey: string,
    input: { subscriptionId: string; email: string | null; name: string | null },
  ): Promise<{ id: string }>;
}
