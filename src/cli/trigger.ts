import { randomBytes } from 'node:crypto';
import type { Schema } from '@cobro/sdk';
import { EVENT_TYPES } from '../domain/webhooks/webhook.service.ts';
import type { ApiClient } from './api-client.ts';
import { CliError } from './api-client.ts';

/**
 * `cobro trigger EVENT_TYPE`: makes, through the public API and its test helpers, the objects and
 * the state change that emit that event, so a webhook handler can be tried without a payer.
 * Subscription events that need time to pass (UNPAID, COMPLETE, EXPIRED) move the merchant's
 * test clock forward, as POST /v1/test_helpers/clock/advance does.
 */

type Order = Schema<'PaymentOrder'>;
type Flow = (api: ApiClient, preference: (method: Method) => Promise<string>) => Promise<Order>;
type Method = 'CARD' | 'PIX';
type Outcome = 'APPROVED' | 'REJECTED' | 'PENDING';

const payAnswer = (api: ApiClient, preferenceId: string, outcome: Outcome) =>
  api.answer(
    api.sdk.POST('/v1/test_helpers/checkout_preferences/{id}/pay', {
      params: { path: { id: preferenceId } },
      body: { outcome },
    }),
  );

const pay = (api: ApiClient, preferenceId: string, outcome: Outcome) => api.data(payAnswer(api, preferenceId, outcome));

const expire = (api: ApiClient, orderId: string) =>
  api.data(api.sdk.POST('/v1/test_helpers/payment_orders/{id}/expire', { params: { path: { id: orderId } } }));

/** The way to each payment-order event, from a fresh preference. */
const FLOWS: Record<string, Flow> = {
  // The payer completed the method's details and the money has not arrived yet.
  'PAYMENT_ORDER.OPENED': async (api, preference) => pay(api, await preference('PIX'), 'PENDING'),
  'PAYMENT_ORDER.CLOSED': async (api, preference) => pay(api, await preference('CARD'), 'APPROVED'),
  'PAYMENT_ORDER.REJECTED': async (api, preference) => pay(api, await preference('CARD'), 'REJECTED'),
  'PAYMENT_ORDER.EXPIRED': async (api, preference) => {
    const opened = await pay(api, await preference('PIX'), 'PENDING');
    return expire(api, opened.id);
  },
  'PAYMENT_ORDER.REFUNDED': async (api, preference) => {
    const closed = await pay(api, await preference('CARD'), 'APPROVED');
    return api.data(
      api.sdk.POST('/v1/payment_orders/{id}/refunds', {
        params: { path: { id: closed.id } },
        body: { reason: 'cobro trigger' },
      }),
    );
  },
};

/** A plan for a subscription flow: the method, and what differs from one monthly period a month. */
type Plan = { method: Method; plan?: Partial<Schema<'CreatePaymentLinkRequest'>> };
type Subscribed = { linkId: string; preferenceId: string; order: Order; recurrentPaymentId: string };
type Subscribe = (plan: Plan, outcome: Outcome) => Promise<Subscribed>;
type RecurrentFlow = (api: ApiClient, subscribe: Subscribe) => Promise<Subscribed>;

const advance = (api: ApiClient, seconds: number) =>
  api.data(api.sdk.POST('/v1/test_helpers/clock/advance', { body: { seconds } }));

const getRecurrent = (api: ApiClient, id: string) =>
  api.data(api.sdk.GET('/v1/recurrent_payments/{id}', { params: { path: { id } } }));

/** The renewal order the billing engine opened for a push-method subscription, if any. */
async function openRenewal(api: ApiClient, s: Subscribed): Promise<Order | undefined> {
  const page = await api.data(
    api.sdk.GET('/v1/payment_orders', {
      params: { query: { recurrent_payment_id: s.recurrentPaymentId, status: 'OPENED' } },
    }),
  );
  return page.data.find((o) => o.id !== s.order.id);
}

/** The way to each recurrent-payment event, from a fresh plan and SUBSCRIPTION checkout. */
const RECURRENT_FLOWS: Record<string, RecurrentFlow> = {
  // Created when the payer starts the first payment; a PIX payment stays open until the bank confirms.
  'RECURRENT_PAYMENT.PENDING': (_api, subscribe) => subscribe({ method: 'PIX' }, 'PENDING'),
  'RECURRENT_PAYMENT.TRIALING': (_api, subscribe) =>
    subscribe({ method: 'CARD', plan: { trial_interval_type: 'DAY', trial_interval_count: 7 } }, 'APPROVED'),
  'RECURRENT_PAYMENT.ACTIVE': (_api, subscribe) => subscribe({ method: 'CARD' }, 'APPROVED'),
  'RECURRENT_PAYMENT.INCOMPLETE': (_api, subscribe) => subscribe({ method: 'CARD' }, 'REJECTED'),
  // Declined until the checkout refuses further attempts: the first payment failed for good.
  'RECURRENT_PAYMENT.REJECTED': async (api, subscribe) => {
    const s = await subscribe({ method: 'CARD' }, 'REJECTED');
    for (let attempt = 0; attempt < 10; attempt++) {
      if ((await getRecurrent(api, s.recurrentPaymentId)).status === 'REJECTED') {
        break;
      }
      const again = await payAnswer(api, s.preferenceId, 'REJECTED');
      if (again.response.status !== 201) {
        break;
      }
    }
    return s;
  },
  // A daily PIX plan: its renewal opens (and is mailed) before the due date; left unpaid, it expires.
  'RECURRENT_PAYMENT.UNPAID': async (api, subscribe) => {
    const s = await subscribe({ method: 'PIX', plan: { interval_type: 'DAY', interval_count: 3 } }, 'APPROVED');
    let renewal: Order | undefined;
    for (let step = 0; step < 3 && !renewal; step++) {
      const rec = await getRecurrent(api, s.recurrentPaymentId);
      const { now } = await advance(api, 1);
      const due = rec.next_payment_date ? Date.parse(rec.next_payment_date) : Number.NaN;
      renewal = await openRenewal(api, s);
      if (!renewal && Number.isFinite(due)) {
        // RENEWAL_NOTICE_HOURS may be short: move on to the due date itself.
        await advance(api, Math.max(1, Math.ceil((due - Date.parse(now)) / 1000)));
        renewal = await openRenewal(api, s);
      }
    }
    if (!renewal) {
      throw new CliError(`no renewal order was opened for recurrent payment ${s.recurrentPaymentId}`);
    }
    await expire(api, renewal.id);
    return s;
  },
  'RECURRENT_PAYMENT.CANCELED': async (api, subscribe) => {
    const s = await subscribe({ method: 'CARD' }, 'APPROVED');
    await api.data(
      api.sdk.DELETE('/v1/recurrent_payments/{id}', {
        params: { path: { id: s.recurrentPaymentId }, query: { deleted_by: 'cobro_trigger' } },
      }),
    );
    return s;
  },
  // A one-day plan of one period, paid at checkout: complete when that day ends.
  'RECURRENT_PAYMENT.COMPLETE': async (api, subscribe) => {
    const s = await subscribe({ method: 'CARD', plan: { interval_type: 'DAY', interval_count: 1 } }, 'APPROVED');
    const rec = await getRecurrent(api, s.recurrentPaymentId);
    const end = rec.next_payment_date ? Date.parse(rec.next_payment_date) : Number.NaN;
    const { now } = await advance(api, 1);
    await advance(api, Number.isFinite(end) ? Math.max(1, Math.ceil((end - Date.parse(now)) / 1000)) : 86_400);
    return s;
  },
  // Never paid before the checkout expired (15 minutes by default).
  'RECURRENT_PAYMENT.EXPIRED': async (api, subscribe) => {
    const s = await subscribe({ method: 'PIX' }, 'PENDING');
    await advance(api, 15 * 60 + 1);
    return s;
  },
};

export const TRIGGERABLE_EVENT_TYPES: readonly string[] = [...Object.keys(FLOWS), ...Object.keys(RECURRENT_FLOWS)];

export type TriggerResult = {
  event_type: string;
  checkout_preference_id: string;
  /** The payment order made (for a subscription: its first order). */
  payment_order_id: string;
  /** The status of the object that emitted the event. */
  status: string;
  /** The events of that object, in order. */
  events: { id: string; event_type: string }[];
  /** Recurrent-payment events only: the plan and the subscription. */
  payment_link_id?: string;
  recurrent_payment_id?: string;
};

async function eventsOf(api: ApiClient, entityId: string): Promise<{ id: string; event_type: string }[]> {
  const listed = await api.data(
    api.sdk.GET('/v1/events', { params: { query: { entity_id: entityId, limit: '100' } } }),
  );
  return listed.data.sort((a, b) => a.sequence - b.sequence).map((e) => ({ id: e.id, event_type: e.event_type }));
}

export async function trigger(api: ApiClient, eventType: string): Promise<TriggerResult> {
  const flow = FLOWS[eventType];
  const recurrentFlow = RECURRENT_FLOWS[eventType];
  if (!flow && !recurrentFlow) {
    const known = EVENT_TYPES.includes(eventType)
      ? `${eventType} cannot be triggered`
      : `unknown event type "${eventType}"`;
    throw new CliError(`${known}. Triggerable: ${TRIGGERABLE_EVENT_TYPES.join(', ')}`, 2);
  }
  if (!api.apiKey.startsWith('ck_test_')) {
    throw new CliError('trigger works with test keys only (COBRO_API_KEY=ck_test_…): it uses the test helpers', 2);
  }
  const tag = randomBytes(6).toString('hex');
  if (recurrentFlow) {
    return triggerRecurrent(api, eventType, recurrentFlow, tag);
  }
  let preferenceId = '';
  const preference = async (method: Method): Promise<string> => {
    const created = await api.data(
      api.sdk.POST('/v1/checkout_preferences', {
        body: {
          type: 'PAYMENT',
          amount: method === 'PIX' ? 50 : 16.9,
          currency: method === 'PIX' ? 'BRL' : 'USD',
          title: `cobro trigger ${eventType}`,
          origin: 'API',
          external_id: `trigger-${tag}`,
          payment_method_types: [method],
        },
      }),
    );
    preferenceId = created.id;
    return created.id;
  };
  const order = await (flow as Flow)(api, preference);
  const events = await eventsOf(api, order.id);
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

async function triggerRecurrent(
  api: ApiClient,
  eventType: string,
  flow: RecurrentFlow,
  tag: string,
): Promise<TriggerResult> {
  const subscribe: Subscribe = async ({ method, plan }, outcome) => {
    const link = await api.data(
      api.sdk.POST('/v1/payment_links', {
        body: {
          title: `cobro trigger ${eventType}`,
          amount: method === 'PIX' ? 30 : 9.99,
          currency: method === 'PIX' ? 'BRL' : 'USD',
          interval_type: 'MONTH',
          interval_count: 12,
          external_id: `trigger-${tag}`,
          ...plan,
        },
      }),
    );
    const preference = await api.data(
      api.sdk.POST('/v1/checkout_preferences', {
        body: {
          type: 'SUBSCRIPTION',
          origin: 'API',
          payment_link_id: link.id,
          external_id: `trigger-${tag}`,
          payment_method_types: [method],
        },
      }),
    );
    const order = await pay(api, preference.id, outcome);
    if (!order.recurrent_payment_id) {
      throw new CliError(`payment order ${order.id} of the SUBSCRIPTION checkout has no recurrent payment`);
    }
    return { linkId: link.id, preferenceId: preference.id, order, recurrentPaymentId: order.recurrent_payment_id };
  };
  const made = await flow(api, subscribe);
  const rec = await getRecurrent(api, made.recurrentPaymentId);
  const events = await eventsOf(api, rec.id);
  if (!events.some((e) => e.event_type === eventType)) {
    throw new CliError(
      `the flow ran but no ${eventType} event was recorded for recurrent payment ${rec.id} (status ${rec.status})`,
    );
  }
  return {
    event_type: eventType,
    checkout_preference_id: made.preferenceId,
    payment_order_id: made.order.id,
    status: rec.status,
    events,
    payment_link_id: made.linkId,
    recurrent_payment_id: rec.id,
  };
}

export function formatTrigger(r: TriggerResult): string {
  if (r.recurrent_payment_id) {
    return [
      `Triggered ${r.event_type}`,
      `  payment_link         ${r.payment_link_id ?? ''}`,
      `  checkout_preference  ${r.checkout_preference_id}`,
      `  recurrent_payment    ${r.recurrent_payment_id}  ${r.status}`,
      `  first payment_order  ${r.payment_order_id}`,
      ...r.events.map((e) => `  event                ${e.id}  ${e.event_type}`),
      '',
    ].join('\n');
  }
  return [
    `Triggered ${r.event_type}`,
    `  checkout_preference  ${r.checkout_preference_id}`,
    `  payment_order        ${r.payment_order_id}  ${r.status}`,
    ...r.events.map((e) => `  event                ${e.id}  ${e.event_type}`),
    '',
  ].join('\n');
}
