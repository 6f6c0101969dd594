import type { DisputePayload, DomainEvent } from '../../../domain/events/event.ts';
import { PAYMENT_ORDER_DISPUTED } from '../../../domain/events/event.ts';
import type { PaymentOrder } from '../../../domain/payment-orders/payment-order.ts';
import type { WebhookAttempt, WebhookDelivery } from '../../../domain/webhooks/webhook.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import { csrfField, problems, time } from './layout.ts';
import type { ListInput, ListPageParts, PaymentsKit } from './payments.views.ts';
import { listPage, METHOD_TYPE_NAMES, payerName, statusBadge } from './payments.views.ts';

export const ORDER_STATUS_OPTIONS = ['OPENED', 'CLOSED', 'REJECTED', 'EXPIRED', 'REFUNDED'] as const;

/** The payment orders' list (the Payments section's first tab). */
export function ordersListPage(k: PaymentsKit, input: ListInput<PaymentOrder>): SafeHtml {
  const parts: ListPageParts<PaymentOrder> = {
    tab: 'orders',
    path: '/payments',
    filterLabel: 'Filter payment orders',
    statuses: ORDER_STATUS_OPTIONS,
    exportLabel: tr('Export these payment orders as CSV'),
    table: 'orders',
    caption: tr('Payment orders, newest first'),
    columns: [
      [tr('Created')],
      [tr('Title')],
      [tr('Amount'), true],
      [tr('Status')],
      [tr('Method')],
      [tr('Payer')],
      [tr('External ID')],
    ],
    empty: tr('No payment orders match.'),
    row: (o) => html`<tr data-test="order-row" data-id="${o.id}"><td>${time(o.createdAt)}</td>
<td><a href="${k.base}/payment_orders/${o.id}">${o.title}</a></td>
<td class="num">${k.money(o.amountMinor, o.currency)}</td>
<td>${statusBadge(o.status)}${o.anomaly !== 'NONE' ? html` <span class="badge">${o.anomaly}</span>` : null}</td>
<td>${METHOD_TYPE_NAMES[o.paymentMethodType]}</td>
<td>${o.payer.email ?? ''}</td>
<td>${o.externalId ?? ''}</td></tr>`,
  };
  return listPage(k, parts, input);
}

/** One event of the order with its deliveries and every attempt of each. */
export type TimelineEntry = { event: DomainEvent; deliveries: WebhookDelivery[]; attempts: WebhookAttempt[] };

export type OrderPageInput = {
  order: PaymentOrder;
  methodLabel: string;
  /** The method's instructions, rendered by the checkout's panels (null when there are none). */
  instructions: SafeHtml | null;
  timeline: TimelineEntry[];
  notice: string | null;
  canRefund: boolean;
  canConfirm: boolean;
  canRedeliver: boolean;
};

export function orderPage(k: PaymentsKit, input: OrderPageInput): SafeHtml {
  const o = input.order;
  const name = payerName(o.payer);
  const actions: SafeHtml[] = [];
  if (input.canRefund) {
    actions.push(
      html`<form method="get" action="${k.base}/payment_orders/${o.id}/refund" class="inline-form"><button type="submit" data-test="refund">Refund</button></form>`,
    );
  }
  if (input.canConfirm) {
    actions.push(
      html`<form method="get" action="${k.base}/payment_orders/${o.id}/confirm" class="inline-form"><button type="submit" data-test="confirm-transfer">${tr('Confirm transfer received')}</button></form>`,
    );
  }
  return html`<p><a href="${k.base}/payments">${tr('← Payments')}</a></p>
<h1>${o.title}</h1>
<p class="amount" data-test="order-amount">${k.money(o.amountMinor, o.currency)} ${statusBadge(o.status)}${o.anomaly !== 'NONE' ? html` <span class="badge" data-test="anomaly">${o.anomaly}</span>` : null}</p>
${input.notice ? html`<p class="notice" role="status" data-test="notice">${input.notice}</p>` : null}
${actions.length > 0 ? html`<div class="pay-actions" data-test="actions">${actions}</div>` : null}
<section class="pay-section" aria-labelledby="record"><h2 id="record">${tr('Payment order')}</h2>
<dl class="facts" data-test="record">
<dt>ID</dt><dd><code>${o.id}</code></dd>
<dt>${tr('Status')}</dt><dd>${o.status}</dd>
<dt>${tr('Anomaly')}</dt><dd>${o.anomaly === 'NONE' ? 'None' : o.anomaly}</dd>
<dt>${tr('Amount')}</dt><dd>${k.money(o.amountMinor, o.currency)}</dd>
${o.chargedCurrency !== o.currency || o.chargedAmountMinor !== o.amountMinor ? html`<dt>${tr('Charged')}</dt><dd>${k.money(o.chargedAmountMinor, o.chargedCurrency)}</dd>` : null}
${o.receivedAmountMinor !== null ? html`<dt>${tr('Received')}</dt><dd>${k.money(o.receivedAmountMinor, o.chargedCurrency)}</dd>` : null}
<dt>${tr('Method')}</dt><dd data-test="method">${input.methodLabel}</dd>
<dt>${tr('External ID')}</dt><dd data-test="external-id">${o.externalId ?? '—'}</dd>
<dt>${tr('Origin')}</dt><dd>${o.origin}</dd>
<dt>${tr('Created')}</dt><dd>${time(o.createdAt)}</dd>
<dt>${tr('Expires')}</dt><dd>${time(o.expiresAt)}</dd>
${o.closedAt !== null ? html`<dt>${tr('Paid')}</dt><dd>${time(o.closedAt)}</dd>` : null}
${o.refundedAt !== null ? html`<dt>${tr('Refunded')}</dt><dd>${time(o.refundedAt)}</dd>` : null}
${o.expiredAt !== null ? html`<dt>${tr('Expired')}</dt><dd>${time(o.expiredAt)}</dd>` : null}
${o.failureCode !== null || o.failureMessage !== null ? html`<dt>${tr('Failure')}</dt><dd>${o.failureCode ?? ''} ${o.failureMessage ?? ''}</dd>` : null}
${o.checkoutPreferenceId ? html`<dt>${tr('Checkout preference')}</dt><dd><a href="${k.base}/checkout_preferences/${o.checkoutPreferenceId}">${o.checkoutPreferenceId}</a></dd>` : null}
${o.recurrentPaymentId ? html`<dt>${tr('Subscription')}</dt><dd><a href="${k.base}/recurrent_payments/${o.recurrentPaymentId}">${o.recurrentPaymentId}</a></dd>` : null}
</dl></section>
<section class="pay-section" aria-labelledby="payer"><h2 id="payer">${tr('Payer')}</h2>
<dl class="facts" data-test="payer">
<dt>${tr('Name')}</dt><dd data-test="payer-name">${name === '' ? '—' : name}</dd>
<dt>${tr('E-mail')}</dt><dd data-test="payer-email">${o.payer.email ?? '—'}</dd>
<dt>${tr('Phone')}</dt><dd>${o.payer.phoneNumber ?? '—'}</dd>
</dl></section>
<section class="pay-section" aria-labelledby="instructions" data-test="instructions"><h2 id="instructions">${tr('Payment instructions')}</h2>
${input.instructions ? html`<p class="hint">${tr('As the payer sees them on the checkout.')}</p>${input.instructions}` : html`<p>${tr('None: this method needs no instructions.')}</p>`}
</section>
<section class="pay-section" aria-labelledby="timeline"><h2 id="timeline">${tr('Timeline')}</h2>
${timeline(k, o, input.timeline, input.canRedeliver)}
</section>`;
}

function timeline(k: PaymentsKit, o: PaymentOrder, entries: TimelineEntry[], canRedeliver: boolean): SafeHtml {
  if (entries.length === 0) {
    return html`<p>${tr('No events yet.')}</p>`;
  }
  return html`<ol class="timeline" data-test="timeline">${entries.map(({ event, deliveries, attempts }) => {
    const status = event.eventType.replace(/^PAYMENT_ORDER\./, '');
    return html`<li data-test="event" data-event-type="${event.eventType}">
<p>${time(event.createdAt)} · <strong>${status}</strong> ${tr('· event')} <a href="${k.base}/events/${event.id}"><code>${event.eventType}</code></a></p>
${event.eventType === PAYMENT_ORDER_DISPUTED ? disputeOf(event) : null}
${
  deliveries.length === 0
    ? html`<p class="hint">${tr('No webhook deliveries (no endpoint subscribed to this event).')}</p>`
    : html`<div class="table-wrap" tabindex="0"><table data-test="deliveries"><caption>Webhook deliveries of ${event.eventType}</caption>
<thead><tr><th scope="col">${tr('Time')}</th><th scope="col">${tr('Endpoint')}</th><th scope="col">${tr('Response')}</th></tr></thead>
<tbody>${deliveries.map((d) => {
        const tries = attempts.filter((a) => a.deliveryId === d.id).sort((a, b) => a.attempt - b.attempt);
        return tries.length === 0
          ? html`<tr data-test="delivery-attempt"><td>${d.status === 'PENDING' ? html`Pending, next try ${time(d.nextAttemptAt)}` : d.status}</td><td class="mono">${d.url}</td><td>—</td></tr>`
          : tries.map(
              (a) =>
                html`<tr data-test="delivery-attempt"><td>${time(a.startedAt)}</td><td class="mono">${a.url}</td><td data-test="response-code">${a.statusCode !== null ? String(a.statusCode) : `no response (${a.error ?? 'error'})`}</td></tr>`,
            );
      })}</tbody></table></div>
${
  canRedeliver
    ? html`<form method="post" action="${k.base}/payment_orders/${o.id}/events/${event.id}/redeliver" class="inline-form">${csrfField(k.csrf)}<button type="submit" class="button--secondary">Redeliver ${event.eventType}</button></form>`
    : null
}`
}
</li>`;
  })}</ol>`;
}

/** What the processor said about a dispute, from the event's own body (what the merchant's webhook received). */
function disputeOf(event: DomainEvent): SafeHtml | null {
  const dispute = (JSON.parse(event.payload) as { dispute?: DisputePayload }).dispute;
  if (!dispute) {
    return null;
  }
  const provider = dispute.provider === 'stripe' ? 'Stripe' : dispute.provider;
  return html`<div class="notice" data-test="dispute"><p><strong>${tr('Disputed by the payer')}</strong> · ${tr('Reason: {reason}', { reason: dispute.reason })} · <code>${dispute.id}</code>${dispute.evidence_due_by ? html` · ${tr('Evidence due by')} ${time(Date.parse(dispute.evidence_due_by))}` : null}</p>
<p class="hint">${tr('{provider} holds the disputed money until the dispute is decided; answer it in {provider}’s dashboard. The payment’s status does not change.', { provider })}</p></div>`;
}

/** A confirmation step before an action (works without JavaScript). */
export function confirmPage(
  k: PaymentsKit,
  input: {
    order: PaymentOrder;
    heading: string;
    explanation: string;
    action: string;
    button: string;
    reason?: { value: string };
    problems: readonly string[];
  },
): SafeHtml {
  const o = input.order;
  return html`<p><a href="${k.base}/payment_orders/${o.id}">${tr('← Back to the payment')}</a></p>
<h1>${input.heading}</h1>
${problems(input.problems)}
<p>${input.explanation}</p>
<dl class="facts"><dt>${tr('Payment')}</dt><dd>${o.title}</dd><dt>${tr('Amount')}</dt><dd>${k.money(o.amountMinor, o.currency)}</dd><dt>${tr('Payer')}</dt><dd>${o.payer.email ?? '—'}</dd></dl>
<form method="post" action="${input.action}" class="pay-section">${csrfField(k.csrf)}
${
  input.reason
    ? html`<div class="field"><label for="reason">${tr('Reason')}</label><textarea id="reason" name="reason" rows="3" maxlength="500" aria-describedby="reason-hint">${input.reason.value}</textarea>
<p class="hint" id="reason-hint">${tr('Kept in the audit log. At most 500 characters.')}</p></div>`
    : null
}
<button type="submit" data-test="confirm">${input.button}</button>
<a href="${k.base}/payment_orders/${o.id}">${tr('Cancel')}</a>
</form>`;
}
