import type { FastifyInstance } from 'fastify';
import { createPaymentLink, createPreference } from './builders.ts';
import type { TestMerchant } from './test-app.ts';

export type OrderBody = Record<string, unknown> & {
  id: string;
  status: string;
  anomaly: string;
  sequence: number;
  payment_instructions: Record<string, unknown> | null;
};

/** Which currency each method type is tested in (the catalogue has methods in these). */
export const METHOD_CURRENCY: Record<string, string> = {
  CARD: 'USD',
  PIX: 'BRL',
  CRYPTO_ONCHAIN: 'USD',
  BANK_TRANSFER: 'MXN',
  CASH: 'MXN',
};

export async function pay(
  app: FastifyInstance,
  merchant: TestMerchant,
  preferenceId: string,
  body: Record<string, unknown> = {},
): Promise<{ statusCode: number; body: string; json: () => OrderBody }> {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/test_helpers/checkout_preferences/${preferenceId}/pay`,
    headers: merchant.authHeaders,
    payload: body,
  });
  return { statusCode: res.statusCode, body: res.body, json: () => res.json() as OrderBody };
}

export async function getOrder(app: FastifyInstance, merchant: TestMerchant, id: string): Promise<OrderBody> {
  const res = await app.inject({ method: 'GET', url: `/v1/payment_orders/${id}`, headers: merchant.authHeaders });
  if (res.statusCode !== 200) {
    throw new Error(`GET order ${id}: ${res.statusCode} ${res.body}`);
  }
  return res.json() as OrderBody;
}

/** Moves the merchant's test clock forward (POST /v1/test_helpers/clock/advance), which runs the jobs due. */
export async function advanceClock(app: FastifyInstance, merchant: TestMerchant, seconds: number): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/test_helpers/clock/advance',
    headers: merchant.authHeaders,
    payload: { seconds },
  });
  if (res.statusCode !== 200) {
    throw new Error(`clock advance: ${res.statusCode} ${res.body}`);
  }
}

/** The checkout of a plan of 30 BRL every three months, payable by PIX only. */
export async function pixSubscriptionCheckout(
  app: FastifyInstance,
  merchant: TestMerchant,
  title = 'Revista Mensal',
): Promise<{ id: string }> {
  const link = await createPaymentLink(app, merchant, {
    title,
    amount: 30,
    currency: 'BRL',
    interval_type: 'MONTH',
    interval_count: 3,
  });
  return createPreference(app, merchant, {
    type: 'SUBSCRIPTION',
    payment_link_id: link.id,
    payment_method_types: ['PIX'],
  });
}

/**
 * A subscriber (Ana) paying the first period of a plan of 30 BRL every three months by PIX:
 * the plan's checkout and the first order as the pay test helper answers it.
 */
export async function payPixSubscription(
  app: FastifyInstance,
  merchant: TestMerchant,
  { title = 'Revista Mensal', email = 'ana@example.com' }: { title?: string; email?: string } = {},
) {
  const pref = await pixSubscriptionCheckout(app, merchant, title);
  const order = await pay(app, merchant, pref.id, { payer: { email, first_name: 'Ana', last_name: 'Souza' } });
  return { pref, order };
}
