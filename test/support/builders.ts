import type { FastifyInstance } from 'fastify';
import type { TestMerchant } from './test-app.ts';

/** A valid PAYMENT body; override any member. */
export function paymentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'PAYMENT', amount: 16.9, currency: 'USD', title: 'Tea for two', origin: 'API', ...overrides };
}

export function subscriptionPlanBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Gold plan',
    amount: 9.99,
    currency: 'USD',
    interval_type: 'MONTH',
    interval_count: 12,
    ...overrides,
  };
}

/** POSTs a creation and returns the created record; anything but 201 fails the test with the answer. */
async function created(
  app: FastifyInstance,
  merchant: TestMerchant,
  url: string,
  payload: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: string }> {
  const res = await app.inject({ method: 'POST', url, headers: merchant.authHeaders, payload });
  if (res.statusCode !== 201) {
    throw new Error(`POST ${url} failed: ${res.statusCode} ${res.body}`);
  }
  return res.json();
}

export function createPreference(
  app: FastifyInstance,
  merchant: TestMerchant,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string }> {
  return created(app, merchant, '/v1/checkout_preferences', paymentBody(overrides));
}

export function createPaymentLink(
  app: FastifyInstance,
  merchant: TestMerchant,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string }> {
  return created(app, merchant, '/v1/payment_links', subscriptionPlanBody(overrides));
}

/** Asserts the API's error body shape and returns it. */
export function errorBody(body: string): { code: string; messages: string[] } {
  const parsed = JSON.parse(body) as { code?: unknown; messages?: unknown };
  if (
    typeof parsed.code !== 'string' ||
    !Array.isArray(parsed.messages) ||
    parsed.messages.length === 0 ||
    !parsed.messages.every((m) => typeof m === 'string') ||
    Object.keys(parsed).length !== 2
  ) {
    throw new Error(`not an error body: ${body}`);
  }
  return parsed as { code: string; messages: string[] };
}
