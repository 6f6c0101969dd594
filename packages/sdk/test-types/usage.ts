// Compiled by test/sdk/sdk-types.test.ts under tsconfig.nodenext.json and tsconfig.bundler.json,
// importing the built package by its name. Every line marked as an expected error must be one.
import type { CobroEvent, CobroEventOf, ErrorBody, Schema } from '@cobro/sdk';
import { createCobroClient, verifyWebhook, WebhookVerificationError } from '@cobro/sdk';

const cobro = createCobroClient({ baseUrl: 'https://pay.example.com', apiKey: 'ck_test_1', apiSecret: 'cs_test_1' });

export async function documentedUses(): Promise<string> {
  const created = await cobro.POST('/v1/checkout_preferences', {
    body: { type: 'PAYMENT', origin: 'API', amount: 16.9, currency: 'USD', title: 'Tea for two' },
  });
  if (created.error) {
    const failure: ErrorBody = created.error;
    return failure.code;
  }
  const preference: Schema<'CheckoutPreference'> = created.data;
  const read = await cobro.GET('/v1/checkout_preferences/{id}', { params: { path: { id: preference.id } } });
  const methods = await cobro.GET('/v1/payment_methods', { params: { query: { type: 'CARD', currency: 'USD' } } });
  const cards: string[] = methods.data?.payment_methods.map((m) => m.id) ?? [];
  const refund = await cobro.POST('/v1/payment_orders/{id}/refunds', {
    params: { path: { id: 'order' } },
    headers: { 'Idempotency-Key': 'refund-order' },
    body: { reason: 'returned' },
  });
  const status: 'OPENED' | 'CLOSED' | 'REJECTED' | 'EXPIRED' | 'REFUNDED' | undefined = refund.data?.status;
  return `${read.data?.checkout_url} ${cards.join()} ${status}`;
}

export async function mistakes(): Promise<void> {
  // @ts-expect-error a path the API does not have
  await cobro.GET('/v1/checkout_preference/{id}', { params: { path: { id: 'x' } } });
  const amountAsText = { type: 'PAYMENT', origin: 'API', amount: '16.90', currency: 'USD' } as const;
  // @ts-expect-error amount is a number
  await cobro.POST('/v1/checkout_preferences', { body: amountAsText });
  const noType = { origin: 'API', amount: 16.9, currency: 'USD' } as const;
  // @ts-expect-error type is required
  await cobro.POST('/v1/checkout_preferences', { body: noType });
  // @ts-expect-error the order's id is required
  await cobro.GET('/v1/payment_orders/{id}', { params: { path: {} } });
  // @ts-expect-error the method types are an enum
  await cobro.GET('/v1/payment_methods', { params: { query: { type: 'CHEQUE' } } });
  // @ts-expect-error GET has no body
  await cobro.GET('/v1/payment_methods', { body: { type: 'CARD' } });
  // @ts-expect-error credentials are required
  createCobroClient({ baseUrl: 'https://pay.example.com' });
}

export function onWebhook(rawBody: string | Uint8Array, headers: Headers, secret: string): string {
  let event: CobroEvent;
  try {
    event = verifyWebhook(rawBody, headers, secret);
  } catch (error) {
    return error instanceof WebhookVerificationError ? 'refused' : 'failed';
  }
  switch (event.event_type) {
    case 'PAYMENT_ORDER.CLOSED': {
      const closed: 'CLOSED' = event.status;
      return `${event.payment_order_id} ${closed} ${event.sequence}`;
    }
    case 'RECURRENT_PAYMENT.CANCELED':
      return event.recurrent_payment_id;
    case 'WEBHOOK_ENDPOINT.TEST':
      return event.webhook_endpoint_id;
    default:
      return event.entity_id;
  }
}

export function narrowed(event: CobroEventOf<'PAYMENT_ORDER.REFUNDED'>): string {
  // @ts-expect-error a refunded order's event says REFUNDED
  const wrong: 'CLOSED' = event.status;
  // @ts-expect-error an event type Cobro does not send
  const unknown: CobroEvent['event_type'] = 'PAYMENT_ORDER.PAID';
  return `${wrong} ${unknown}`;
}
