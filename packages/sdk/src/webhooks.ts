import { WebhookVerificationError as StandardWebhookError, Webhook } from 'standardwebhooks';
import type { components } from './schema.js';

type Schemas = components['schemas'];

/**
 * One member per event type, its `status` narrowed to match: `PAYMENT_ORDER.CLOSED` has
 * `status: 'CLOSED'`. Each event type is `<entity_type>.<status after the change>`.
 */
type PerStatus<E extends { status: string; event_type: string }, Entity extends string> = E['status'] extends infer S
  ? S extends string
    ? E & { event_type: Extract<E['event_type'], `${Entity}.${S}`>; status: S }
    : never
  : never;

/**
 * The body of a webhook delivery, typed by event type: narrow on `event_type` (or `entity_type`).
 * Built from the `CobroEvent` schema of the OpenAPI document.
 */
export type CobroEvent =
  | PerStatus<Schemas['PaymentOrderEvent'], 'PAYMENT_ORDER'>
  | PerStatus<Schemas['RecurrentPaymentEvent'], 'RECURRENT_PAYMENT'>
  | Schemas['WebhookEndpointTestEvent'];

export type CobroEventType = CobroEvent['event_type'];

/** The event of one type: `CobroEventOf<'PAYMENT_ORDER.CLOSED'>`. */
export type CobroEventOf<T extends CobroEventType> = Extract<CobroEvent, { event_type: T }>;

/** Headers as Node gives them (`req.headers`) or as a `Headers` (fetch, Deno, Bun, Hono…). */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

/** The delivery is not from Cobro as sent: signature missing or wrong, or timestamp out of range. */
export class WebhookVerificationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * Checks a webhook delivery (Standard Webhooks, as Cobro signs them) and returns its event.
 * `rawBody` is the body exactly as received, before any JSON parsing; `secret` the `whsec_…`
 * signing secret (an endpoint's, or the merchant's from `GET /v1/webhook_settings`). Throws
 * `WebhookVerificationError` when the signature does not match or the timestamp is more than five
 * minutes away from this clock.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string,
): CobroEvent {
  const body = bodyText(rawBody);
  let verifier: Webhook;
  try {
    verifier = new Webhook(secret);
  } catch (error) {
    throw new TypeError('secret must be the whsec_… signing secret of the webhook', { cause: error });
  }
  let event: unknown;
  try {
    event = verifier.verify(body, headerRecord(headers));
  } catch (error) {
    if (error instanceof StandardWebhookError) {
      throw new WebhookVerificationError(error.message, { cause: error });
    }
    if (error instanceof SyntaxError) {
      throw new WebhookVerificationError('the body is not JSON', { cause: error });
    }
    throw error;
  }
  if (typeof event !== 'object' || event === null) {
    throw new WebhookVerificationError('the body is not a Cobro event');
  }
  return event as CobroEvent;
}

function bodyText(rawBody: unknown): string {
  if (typeof rawBody === 'string') {
    return rawBody;
  }
  if (rawBody instanceof Uint8Array || rawBody instanceof ArrayBuffer) {
    return new TextDecoder().decode(rawBody);
  }
  throw new TypeError(
    'verifyWebhook needs the raw body (a string or bytes) exactly as received, not parsed JSON: e.g. express.raw({ type: "application/json" })',
  );
}

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => {
      record[name.toLowerCase()] = value;
    });
    return record;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (value !== undefined) {
      record[name.toLowerCase()] = typeof value === 'string' ? value : value.join(' ');
    }
  }
  return record;
}
