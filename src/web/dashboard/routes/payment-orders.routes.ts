import type { PaymentOrder } from '../../../domain/payment-orders/payment-order.ts';
import { AppError, notFound } from '../../../domain/shared/errors.ts';
import { formatMinor } from '../../../domain/shared/money.ts';
import { formField } from '../../kit/form-input.ts';
import { isBoleto, methodName } from '../../kit/format.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { cardDescription } from '../../kit/instructions/card.ts';
import { pushPanel } from '../../kit/instructions/index.ts';
import type { PanelContext } from '../../kit/instructions/shared.ts';
import { negotiateLanguage } from '../../kit/locale.ts';
import { messagesFor } from '../../kit/payer-messages.ts';
import { t as tr } from '../i18n.ts';
import type { PaymentList } from '../payment-lists.ts';
import { exportList, iso, paymentsKit, showList } from '../payment-lists.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { confirmPage, ORDER_STATUS_OPTIONS, orderPage, ordersListPage } from '../views/payment-orders.views.ts';
import { METHOD_TYPE_NAMES } from '../views/payments.views.ts';

/**
 * Payment orders: the filtered list and its CSV export, an order's page (record, payer,
 * instructions, timeline with webhook deliveries), and what a merchant does from it: refund,
 * confirm a bank transfer, redeliver an event. Every read and change goes through the domain
 * services the API uses; another merchant's or the other mode's id is NOT_FOUND (404).
 */
export function paymentOrdersRoutes(r: DashRouter): void {
  r.page('/payments', listPaymentOrders);
  r.page('/payments.csv', exportPaymentOrders);
  r.page('/payment_orders/:id', showPaymentOrder);
  r.page('/payment_orders/:id/refund', askRefund, 'payments.write');
  r.action('/payment_orders/:id/refund', 'payments.write', refundPaymentOrder);
  r.page('/payment_orders/:id/confirm', askConfirmTransfer, 'payments.write');
  r.action('/payment_orders/:id/confirm', 'payments.write', confirmTransfer);
  r.action('/payment_orders/:id/events/:eventId/redeliver', 'webhooks.write', redeliverEvent);
}

type IdParams = { Params: { id: string } };

const MAX_REASON = 500;

/**
 * Fixed notices after a redirect: the query only chooses one, its text is never echoed. Functions,
 * so each is worded in the language of the request that shows it.
 */
const NOTICES: Record<string, () => string> = {
  refunded: () => tr('The payment is refunded.'),
  refund_pending: () =>
    tr(
      'The refund is asked for: the processor is still processing it. The payment becomes refunded when it reports the refund done.',
    ),
  confirmed: () => tr('The transfer is confirmed: the payment is paid.'),
  redelivered: () => tr('The event is queued for one more delivery to each of its endpoints.'),
};

const ORDERS: PaymentList<PaymentOrder, (typeof ORDER_STATUS_OPTIONS)[number]> = {
  title: () => 'Payments',
  statuses: ORDER_STATUS_OPTIONS,
  read: ({ services, caller }, page, filter) => services.orders.list(caller, page, filter),
  render: ordersListPage,
  csv: {
    file: 'payment-orders',
    header: [
      'id',
      'created_at',
      'status',
      'anomaly',
      'amount',
      'currency',
      'payment_method_type',
      'title',
      'external_id',
      'payer_email',
      'payer_first_name',
      'payer_last_name',
      'checkout_preference_id',
      'closed_at',
      'refunded_at',
    ],
    row: (o, { amount }) => [
      o.id,
      iso(o.createdAt),
      o.status,
      o.anomaly,
      amount(o.amountMinor, o.currency),
      o.currency,
      o.paymentMethodType,
      o.title,
      o.externalId ?? '',
      o.payer.email ?? '',
      o.payer.firstName ?? '',
      o.payer.lastName ?? '',
      o.checkoutPreferenceId ?? '',
      iso(o.closedAt),
      iso(o.refundedAt),
    ],
  },
};

async function listPaymentOrders(r: DashRequest) {
  return showList(r, ORDERS);
}

async function exportPaymentOrders(r: DashRequest) {
  return exportList(r, ORDERS);
}

async function showPaymentOrder(r: DashRequest<IdParams>) {
  const { req, ctx, services, caller, render } = r;
  const order = await services.orders.get(caller, req.params.id);
  const method = await services.paymentMethods.get(order.paymentMethodId);
  // The dashboard's language (the same negotiation as its words), for the method and the checkout's panels alike.
  const language = negotiateLanguage(req.headers['accept-language']);
  const methodLabel = method ? methodName(method, language.locale) : METHOD_TYPE_NAMES[order.paymentMethodType];
  const instructions = await instructionsOf(order, {
    messages: messagesFor(language.locale),
    language,
    currencies: services.currencies,
    methodLabel,
    networkName: method?.network?.name ?? null,
    boleto: isBoleto(method),
  });
  const events = await services.webhooks.events.listEvents(
    caller,
    { limit: 100, cursor: null },
    { entityId: order.id },
  );
  const chronological = [...events.data].sort((a, b) => a.sequence - b.sequence || a.createdAt - b.createdAt);
  const timeline = await Promise.all(
    chronological.map(async (event) => ({ event, ...(await services.webhooks.events.deliveries(caller, event.id)) })),
  );
  const done = formField(req.query, 'done');
  return render(
    'payments',
    order.title,
    orderPage(paymentsKit(r), {
      order,
      methodLabel,
      instructions,
      timeline,
      notice: NOTICES[done]?.() ?? null,
      canRefund: order.status === 'CLOSED' && ctx.can('payments.write'),
      canConfirm: order.status === 'OPENED' && order.paymentMethodType === 'BANK_TRANSFER' && ctx.can('payments.write'),
      canRedeliver: ctx.can('webhooks.write'),
    }),
  );
}

/** The method's instructions as the checkout shows them (its own panels); a card shows brand and last four. */
async function instructionsOf(order: PaymentOrder, ctx: PanelContext): Promise<SafeHtml | null> {
  const ins = order.instructions;
  if (ins?.type === 'CARD') {
    const described = cardDescription(ins, ctx);
    return described ? html`<p data-test="card-used">${described}</p>` : null;
  }
  return pushPanel(ins, ctx);
}

/** The refund's confirmation step: asks for a reason; answers 409 when the order cannot be refunded. */
async function askRefund(r: DashRequest<IdParams>) {
  const order = await r.services.orders.get(r.caller, r.req.params.id);
  const blocked =
    order.status === 'CLOSED'
      ? []
      : [tr('This payment cannot be refunded: its status is {status}.', { status: order.status })];
  return refundPage(r, order, '', blocked, blocked.length > 0 ? 409 : 200);
}

/** Refunds through the orders' move service (which publishes the event), then the audit entry. */
async function refundPaymentOrder(r: DashRequest<IdParams>) {
  const { req, ctx, services, caller, audit, redirect } = r;
  const order = await services.orders.get(caller, req.params.id);
  const reason = formField(req.body, 'reason').trim();
  if ([...reason].length > MAX_REASON) {
    return refundPage(r, order, reason, [tr('Reason must be at most {max} characters.', { max: MAX_REASON })], 400);
  }
  let refunded: PaymentOrder;
  try {
    refunded = await services.orderMoves.refund(caller, order.id);
  } catch (error) {
    // Refused, or the processor cannot be reached now (nothing changed): the form again, with why.
    if (error instanceof AppError && (error.code === 'CONFLICT' || error.code === 'SERVICE_UNAVAILABLE')) {
      return refundPage(r, order, reason, error.messages, error.code === 'CONFLICT' ? 409 : 503);
    }
    throw error;
  }
  await audit({
    action: 'payment_order.refund',
    objectType: 'payment_order',
    objectId: order.id,
    detail: {
      mode: ctx.mode,
      reason: reason === '' ? null : reason,
      amount: formatMinor(order.amountMinor, services.currencies.decimalsOf(order.currency)),
      currency: order.currency,
    },
  });
  // A processor may take its time: the order stays CLOSED until it reports the refund done.
  const done = refunded.status === 'REFUNDED' ? 'refunded' : 'refund_pending';
  return redirect(`${ctx.base}/payment_orders/${order.id}?done=${done}`);
}

function refundPage(r: DashRequest, order: PaymentOrder, reason: string, problems: readonly string[], status: number) {
  return r.render(
    'payments',
    'Refund',
    confirmPage(paymentsKit(r), {
      order,
      heading: tr('Refund {title}?', { title: order.title }),
      explanation:
        order.paymentMethodType === 'CARD'
          ? tr('The whole amount goes back to the card. This cannot be undone.')
          : tr(
              'Send the money back to the payer yourself; this records the payment as refunded and notifies your webhooks. This cannot be undone.',
            ),
      action: `${r.ctx.base}/payment_orders/${order.id}/refund`,
      button: 'Refund',
      reason: { value: reason },
      problems,
    }),
    status,
  );
}

/** Confirming a bank transfer the merchant saw arrive: the confirmation step (409 unless an open transfer). */
async function askConfirmTransfer(r: DashRequest<IdParams>) {
  const order = await r.services.orders.get(r.caller, r.req.params.id);
  const blocked =
    order.status === 'OPENED' && order.paymentMethodType === 'BANK_TRANSFER'
      ? []
      : [tr('Only an open bank transfer can be confirmed by you.')];
  return confirmTransferPage(r, order, blocked, blocked.length > 0 ? 409 : 200);
}

async function confirmTransfer(r: DashRequest<IdParams>) {
  const { req, ctx, services, caller, audit, redirect } = r;
  const order = await services.orders.get(caller, req.params.id);
  try {
    await services.orderMoves.confirmByMerchant(caller, order.id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT') {
      return confirmTransferPage(r, order, error.messages, 409);
    }
    throw error;
  }
  await audit({
    action: 'payment_order.confirm',
    objectType: 'payment_order',
    objectId: order.id,
    detail: { mode: ctx.mode },
  });
  return redirect(`${ctx.base}/payment_orders/${order.id}?done=confirmed`);
}

function confirmTransferPage(r: DashRequest, order: PaymentOrder, problems: readonly string[], status: number) {
  return r.render(
    'payments',
    tr('Confirm transfer'),
    confirmPage(paymentsKit(r), {
      order,
      heading: tr('Confirm the transfer for {title}?', { title: order.title }),
      explanation: tr(
        'Confirm only when the money is in your account with the reference of this payment: the payment becomes paid and your webhooks are notified.',
      ),
      action: `${r.ctx.base}/payment_orders/${order.id}/confirm`,
      button: tr('Confirm transfer received'),
      problems,
    }),
    status,
  );
}

/** One more delivery of one event of this order (webhook service), back to the order's timeline. */
async function redeliverEvent({
  req,
  ctx,
  services,
  caller,
  audit,
  redirect,
}: DashRequest<{ Params: { id: string; eventId: string } }>) {
  const order = await services.orders.get(caller, req.params.id);
  const event = await services.webhooks.events.getEvent(caller, req.params.eventId);
  if (event.entityId !== order.id) {
    throw notFound('event');
  }
  await services.webhooks.events.redeliver(caller, event.id);
  await audit({
    action: 'event.redeliver',
    objectType: 'event',
    objectId: event.id,
    detail: { mode: ctx.mode, payment_order_id: order.id, event_type: event.eventType },
  });
  return redirect(`${ctx.base}/payment_orders/${order.id}?done=redelivered`);
}
