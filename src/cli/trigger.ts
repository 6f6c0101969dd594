import { randomBytes } from 'node:crypto';
import { EVENT_TYPES } from '../domain/webhooks/webhook.service.ts';
import type { ApiClient } from './api-client.ts';
import { CliError } from './api-client.ts';

/**
 * `cobro trigger EVENT_TYPE`: makes, through the public API and its test helpers, the objects and
 * the state change that emit that event, so a webhook handler can be tried without a payer.
 */

type Order = { id: string; status: string };
type Flow = (api: ApiClient, preference: (method: Method) => Promise<string>) => Promise<Order>;
type Method = 'CARD' | 'PIX';

const pay = (api: ApiClient, preferenceId: string, outcome: 'APPROVED' | 'REJECTED' | 'PENDING') =>
  api.expect<Order>(201, 'POST', `/v1/test_helpers/checkout_preferences/${preferenceId}/pay`, { outcome });

/** The way to each payment-order event, from a fresh preference. */
const FLOWS: Record<string, Flow> = {
  // The payer completed the method's details and the money has not arrived yet.
  'PAYMENT_ORDER.OPENED': async (api, preference) => pay(api, await preference('PIX'), 'PENDING'),
  'PAYMENT_ORDER.CLOSED': async (api, preference) => pay(api, await preference('CARD'), 'APPROVED'),
  'PAYMENT_ORDER.REJECTED': async (api, preference) => pay(api, await preference('CARD'), 'REJECTED'),
  'PAYMENT_ORDER.EXPIRED': async (api, preference) => {
    const opened = await pay(api, await preference('PIX'), 'PENDING');
    return api.expect<Order>(200, 'POST', `/v1/test_helpers/payment_orders/${opened.id}/expire`, {});
  },
  'PAYMENT_ORDER.REFUNDED': async (api, preference) => {
    const closed = await pay(api, await preference('CARD'), 'APPROVED');
    return api.expect<Order>(200, 'POST', `/v1/payment_orders/${closed.id}/refunds`, { reason: 'cobro trigger' });
  },
};

export const TRIGGERABLE_EVENT_TYPES: readonly string[] = Object.keys(FLOWS);

export type TriggerResult = {
  event_type: string;
  checkout_preference_id: string;
  payment_order_id: string;
  status: string;
  events: { id: string; event_type: string }[];
};

export async function trigger(api: ApiClient, eventType: string): Promise<TriggerResult> {
  const flow = FLOWS[eventType];
  if (!flow) {
    if (EVENT_TYPES.includes(eventType)) {
      throw new CliError(
        `${eventType} cannot be triggered yet: recurrent payments are not available in this version. ` +
          `Triggerable: ${TRIGGERABLE_EVENT_TYPES.join(', ')}`,
        2,
      );
    }
    throw new CliError(`unknown event type "${eventType}". Triggerable: ${TRIGGERABLE_EVENT_TYPES.join(', ')}`, 2);
  }
  if (!api.apiKey.startsWith('ck_test_')) {
    throw new CliError('trigger works with test keys only (COBRO_API_KEY=ck_test_…): it uses the test helpers', 2);
  }
  let preferenceId = '';
  const preference = async (method: Method): Promise<string> => {
    const created = await api.expect<{ id: string }>(201, 'POST', '/v1/checkout_preferences', {
      type: 'PAYMENT',
      amount: method === 'PIX' ? 50 : 16.9,
      currency: method === 'PIX' ? 'BRL' : 'USD',
      title: `cobro trigger ${eventType}`,
      origin: 'API',
      external_id: `trigger-${randomBytes(6).toString('hex')}`,
      payment_method_types: [method],
    });
    preferenceId = created.id;
    return created.id;
  };
  const order = await flow(api, preference);
  const listed = await api.expect<{ data: { id: string; event_type: string; sequence: number }[] }>(
    200,
    'GET',
    `/v1/events?entity_id=${encodeURIComponent(order.id)}&limit=100`,
  );
  const events = listed.data
    .sort((a, b) => a.sequence - b.sequence)
    .map((e) => ({ id: e.id, event_type: e.event_type }));
  if (!events.some((e) => e.event_type === eventType)) {
    throw new CliError(`the flow ran but no ${eventType} event was recorded for payment order ${order.id}`);
  }
  return {
    event_type: eventType,
    checkout_preference_id: preferenceId,
    payment_order_id: order.id,
    status: order.status,
    events,
  };
}

export function formatTrigger(r: TriggerResult): string {
  return [
    `Triggered ${r.event_type}`,
    `  checkout_preference  ${r.checkout_preference_id}`,
    `  payment_order        ${r.payment_order_id}  ${r.status}`,
    ...r.events.map((e) => `  event                ${e.id}  ${e.event_type}`),
    '',
  ].join('\n');
}
