import type { CheckoutPreference } from '../../../domain/checkout-preferences/checkout-preference.ts';
import type { DomainEvent } from '../../../domain/events/event.ts';
import type { PaymentMethodType } from '../../../domain/payment-methods/payment-method.ts';
import type { PaymentOrder } from '../../../domain/payment-orders/payment-order.ts';
import type { Page } from '../../../domain/shared/page.ts';
import type { WebhookAttempt, WebhookDelivery } from '../../../domain/webhooks/webhook.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { formatTime, t as tr } from '../i18n.ts';
import { csrfField, problems } from './layout.ts';

/** What every payments view needs from its request. */
export type PaymentsKit = {
  /** `/dashboard` or `/dashboard/test`. */
  base: string;
  /** Money in the reader's language, with the currency's own decimals. */
  money: (amountMinor: bigint, currency: string) => string;
  csrf: string;
};

/** The filter form as typed (shown again as given), for both lists. */
export type FilterForm = {
  status: string;
  method: string;
  created_from: string;
  created_to: string;
  external_id: string;
  payer_email: string;
};

export const FILTER_FIELDS: readonly (keyof FilterForm)[] = [
  'status',
  'method',
  'created_from',
  'created_to',
  'external_id',
  'payer_email',
];

export const ORDER_STATUS_OPTIONS = ['OPENED', 'CLOSED', 'REJECTED', 'EXPIRED', 'REFUNDED'] as const;
export const PREFERENCE_STATUS_OPTIONS = ['OPEN', 'PAID', 'EXPIRED'] as const;

/** Method types as merchants call them (the same English names as the checkout's). */
export const METHOD_TYPE_NAMES: Record<PaymentMethodType, string> = {
  CARD: 'Card',
  PIX: 'PIX',
  CRYPTO_ONCHAIN: 'Crypto',
  BANK_TRANSFER: 'Bank transfer',
  CASH: 'Cash',
};
export const METHOD_TYPES = Object.keys(METHOD_TYPE_NAMES) as PaymentMethodType[];

/** The "expires in" choices of the create form, in minutes. */
export const EXPIRY_CHOICES = [
  { value: '15', label: '15 minutes' },
  { value: '60', label: '1 hour' },
  { value: '1440', label: '1 day' },
  { value: '4320', label: '3 days' },
  { value: '10080', label: '7 days' },
] as const;

export function time(ms: number | null): SafeHtml {
  return ms === null ? html`—` : html`<time datetime="${new Date(ms).toISOString()}">${formatTime(ms)}</time>`;
}

function payerName(p: { firstName: string | null; lastName: string | null }): string {
  return [p.firstName, p.lastName].filter((x) => x !== null && x !== '').join(' ');
}

function statusBadge(status: string): SafeHtml {
  return html`<span class="badge badge--${status.toLowerCase()}" data-test="status">${status}</span>`;
}

/** `?a=1&b=2` from the non-empty members (for links that keep the filters), '' when none. */
export function queryOf(values: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v !== '') {
      params.set(k, v);
    }
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function tabs(k: PaymentsKit, current: 'orders' | 'preferences', canCreate: boolean): SafeHtml {
  return html`<nav aria-label="${tr('Payment lists')}" class="tabs"><ul>
<li><a href="${k.base}/payments"${current === 'orders' ? html` aria-current="page"` : null}>${tr('Payment orders')}</a></li>
<li><a href="${k.base}/checkout_preferences"${current === 'preferences' ? html` aria-current="page"` : null}>${tr('Checkout preferences')}</a></li>
</ul></nav>
${canCreate ? html`<p><a class="button" href="${k.base}/payments/new" data-test="new-payment">${tr('Create a payment')}</a></p>` : null}`;
}

function filterForm(action: string, label: string, form: FilterForm, statuses: readonly string[]): SafeHtml {
  const option = (value: string, text: string, chosen: string) =>
    html`<option value="${value}"${value === chosen ? html` selected` : null}>${text}</option>`;
  return html`<form method="get" action="${action}" class="toolbar" role="search" aria-label="${label}" data-test="filters">
<div class="field"><label for="f-status">${tr('Status')}</label><select id="f-status" name="status">${option('', 'Any', form.status)}${statuses.map((s) => option(s, s, form.status))}</select></div>
<div class="field"><label for="f-method">${tr('Method')}</label><select id="f-method" name="method">${option('', 'Any', form.method)}${METHOD_TYPES.map((t) => option(t, METHOD_TYPE_NAMES[t], form.method))}</select></div>
<div class="field"><label for="f-from">${tr('Created from (UTC)')}</label><input id="f-from" name="created_from" type="date" value="${form.created_from}"></div>
<div class="field"><label for="f-to">${tr('Created to (UTC)')}</label><input id="f-to" name="created_to" type="date" value="${form.created_to}"></div>
<div class="field"><label for="f-external">${tr('External ID')}</label><input id="f-external" name="external_id" type="text" maxlength="255" value="${form.external_id}"></div>
<div class="field"><label for="f-email">${tr('Payer e-mail')}</label><input id="f-email" name="payer_email" type="email" maxlength="254" value="${form.payer_email}"></div>
<button type="submit">${tr('Filter')}</button>
<a href="${action}">${tr('Clear filters')}</a>
</form>`;
}

function pager(path: string, filters: Record<string, string>, page: Page<unknown>, paged: boolean): SafeHtml | null {
  const links: SafeHtml[] = [];
  if (paged) {
    links.push(html`<a href="${path}${queryOf(filters)}">${tr('First page')}</a>`);
  }
  if (page.hasMore && page.next) {
    links.push(
      html`<a href="${path}${queryOf({ ...filters, after: `${page.next.createdAt}.${page.next.id}` })}" rel="next" data-test="next-page">${tr('Next page')}</a>`,
    );
  }
  return links.length > 0 ? html`<p class="pager">${links.map((l, i) => html`${i > 0 ? ' · ' : ''}${l}`)}</p>` : null;
}

export type ListInput<T> = {
  form: FilterForm;
  problems: readonly string[];
  page: Page<T> | null;
  paged: boolean;
  canCreate: boolean;
};

export function ordersListPage(k: PaymentsKit, input: ListInput<PaymentOrder>): SafeHtml {
  const filters = { ...input.form };
  const page = input.page;
  return html`<h1>Payments</h1>
${tabs(k, 'orders', input.canCreate)}
${filterForm(`${k.base}/payments`, 'Filter payment orders', input.form, ORDER_STATUS_OPTIONS)}
${problems(input.problems)}
${
  page
    ? html`<p><a href="${k.base}/payments.csv${queryOf(filters)}" data-test="export-csv">${tr('Export these payment orders as CSV')}</a></p>
<div class="table-wrap" tabindex="0"><table data-test="orders"><caption>${tr('Payment orders, newest first')}</caption>
<thead><tr><th scope="col">${tr('Created')}</th><th scope="col">${tr('Title')}</th><th scope="col" class="num">${tr('Amount')}</th><th scope="col">${tr('Status')}</th><th scope="col">${tr('Method')}</th><th scope="col">${tr('Payer')}</th><th scope="col">${tr('External ID')}</th></tr></thead>
<tbody>${
        page.data.length === 0
          ? html`<tr><td colspan="7">${tr('No payment orders match.')}</td></tr>`
          : page.data.map(
              (o) => html`<tr data-test="order-row" data-id="${o.id}"><td>${time(o.createdAt)}</td>
<td><a href="${k.base}/payment_orders/${o.id}">${o.title}</a></td>
<td class="num">${k.money(o.amountMinor, o.currency)}</td>
<td>${statusBadge(o.status)}${o.anomaly !== 'NONE' ? html` <span class="badge">${o.anomaly}</span>` : null}</td>
<td>${METHOD_TYPE_NAMES[o.paymentMethodType]}</td>
<td>${o.payer.email ?? ''}</td>
<td>${o.externalId ?? ''}</td></tr>`,
            )
      }</tbody></table></div>
${pager(`${k.base}/payments`, filters, page, input.paged)}`
    : null
}`;
}

export function preferencesListPage(k: PaymentsKit, input: ListInput<CheckoutPreference>): SafeHtml {
  const filters = { ...input.form };
  const page = input.page;
  return html`<h1>Payments</h1>
${tabs(k, 'preferences', input.canCreate)}
${filterForm(`${k.base}/checkout_preferences`, 'Filter checkout preferences', input.form, PREFERENCE_STATUS_OPTIONS)}
<p class="hint">${tr("Method: the method of the preference's latest payment order. Payer e-mail: given when it was created, or typed by the payer.")}</p>
${problems(input.problems)}
${
  page
    ? html`<p><a href="${k.base}/checkout_preferences.csv${queryOf(filters)}" data-test="export-csv">${tr('Export these checkout preferences as CSV')}</a></p>
<div class="table-wrap" tabindex="0"><table data-test="preferences"><caption>${tr('Checkout preferences, newest first')}</caption>
<thead><tr><th scope="col">${tr('Created')}</th><th scope="col">${tr('Title')}</th><th scope="col" class="num">${tr('Amount')}</th><th scope="col">${tr('Status')}</th><th scope="col">${tr('Type')}</th><th scope="col">${tr('Payer')}</th><th scope="col">${tr('External ID')}</th></tr></thead>
<tbody>${
        page.data.length === 0
          ? html`<tr><td colspan="7">${tr('No checkout preferences match.')}</td></tr>`
          : page.data.map(
              (p) => html`<tr data-test="preference-row" data-id="${p.id}"><td>${time(p.createdAt)}</td>
<td><a href="${k.base}/checkout_preferences/${p.id}">${p.title}</a></td>
<td class="num">${k.money(p.amountMinor, p.currency)}</td>
<td>${statusBadge(p.status)}</td>
<td>${p.type}</td>
<td>${p.payer.email ?? ''}</td>
<td>${p.externalId ?? ''}</td></tr>`,
            )
      }</tbody></table></div>
${pager(`${k.base}/checkout_preferences`, filters, page, input.paged)}`
    : null
}`;
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

export type PreferencePageInput = {
  pref: CheckoutPreference;
  checkoutUrl: string;
  qr: SafeHtml | null;
  orders: PaymentOrder[];
  created: boolean;
};

export function preferencePage(k: PaymentsKit, input: PreferencePageInput): SafeHtml {
  const p = input.pref;
  const name = payerName(p.payer);
  return html`<p><a href="${k.base}/checkout_preferences">${tr('← Checkout preferences')}</a></p>
<h1>${p.title}</h1>
<p class="amount">${k.money(p.amountMinor, p.currency)} ${statusBadge(p.status)}</p>
${
  input.created
    ? html`<p class="notice" role="status" data-test="created">${tr('The payment is ready. Send the payer this link, or let them scan the code.')}</p>`
    : null
}
<section class="pay-section" aria-labelledby="link"><h2 id="link">${tr('Checkout link')}</h2>
<div class="field"><label for="checkout-url">${tr('Checkout URL')}</label><input id="checkout-url" type="text" readonly class="mono" value="${input.checkoutUrl}" data-test="checkout-url"></div>
<p><a href="${input.checkoutUrl}" data-test="checkout-link">${tr('Open the checkout')}</a></p>
${input.qr ? html`<div class="qr" data-test="checkout-qr">${input.qr}</div>` : null}
</section>
<section class="pay-section" aria-labelledby="record"><h2 id="record">${tr('Checkout preference')}</h2>
<dl class="facts" data-test="record">
<dt>ID</dt><dd><code>${p.id}</code></dd>
<dt>${tr('Type')}</dt><dd>${p.type}</dd>
<dt>${tr('Status')}</dt><dd>${p.status}</dd>
<dt>${tr('Amount')}</dt><dd>${k.money(p.amountMinor, p.currency)}</dd>
<dt>${tr('Origin')}</dt><dd>${p.origin}</dd>
<dt>${tr('External ID')}</dt><dd data-test="external-id">${p.externalId ?? '—'}</dd>
<dt>${tr('Methods')}</dt><dd>${p.paymentMethodTypes ? p.paymentMethodTypes.map((t) => METHOD_TYPE_NAMES[t]).join(', ') : 'Every eligible method'}</dd>
<dt>${tr('Payer')}</dt><dd>${[name, p.payer.email ?? ''].filter((x) => x !== '').join(' · ') || '—'}</dd>
<dt>${tr('Created')}</dt><dd>${time(p.createdAt)}</dd>
<dt>${tr('Expires')}</dt><dd>${time(p.expiresAt)}</dd>
${p.paymentLinkId ? html`<dt>${tr('Plan')}</dt><dd><a href="${k.base}/payment_links/${p.paymentLinkId}">${p.paymentLinkId}</a></dd>` : null}
</dl></section>
<section class="pay-section" aria-labelledby="orders"><h2 id="orders">${tr('Payment orders')}</h2>
${
  input.orders.length === 0
    ? html`<p>${tr('No payment orders yet: the payer has not chosen a method.')}</p>`
    : html`<div class="table-wrap" tabindex="0"><table data-test="orders"><caption>${tr('Payment orders of this preference, newest first')}</caption>
<thead><tr><th scope="col">${tr('Created')}</th><th scope="col">${tr('Status')}</th><th scope="col">${tr('Method')}</th><th scope="col" class="num">${tr('Amount')}</th><th scope="col">${tr('Payer')}</th></tr></thead>
<tbody>${input.orders.map(
        (o) =>
          html`<tr data-test="order-row"><td><a href="${k.base}/payment_orders/${o.id}">${time(o.createdAt)}</a></td><td>${statusBadge(o.status)}</td><td>${METHOD_TYPE_NAMES[o.paymentMethodType]}</td><td class="num">${k.money(o.amountMinor, o.currency)}</td><td>${o.payer.email ?? ''}</td></tr>`,
      )}</tbody></table></div>`
}
</section>`;
}

/** The create form's values as typed. */
export type CreateForm = {
  title: string;
  amount: string;
  currency: string;
  expires_in: string;
  methods: string[];
  external_id: string;
};

export function createPaymentPage(
  k: PaymentsKit,
  input: { form: CreateForm; currencies: { code: string; name: string }[]; problems: readonly string[] },
): SafeHtml {
  const f = input.form;
  return html`<p><a href="${k.base}/payments">${tr('← Payments')}</a></p>
<h1>${tr('Create a payment')}</h1>
<p>${tr('A one-time payment with its own checkout link and QR code: for sales by chat or in person.')}</p>
${problems(input.problems)}
<form method="post" action="${k.base}/payments/new" data-test="create-payment">${csrfField(k.csrf)}
<div class="field"><label for="title">${tr('Title')}</label><input id="title" name="title" type="text" required maxlength="255" value="${f.title}" aria-describedby="title-hint"><p class="hint" id="title-hint">${tr('The payer sees it on the checkout.')}</p></div>
<div class="field"><label for="amount">${tr('Amount')}</label><input id="amount" name="amount" type="text" inputmode="decimal" required maxlength="32" value="${f.amount}" aria-describedby="amount-hint"><p class="hint" id="amount-hint">${tr('For example 16.90')}</p></div>
<div class="field"><label for="currency">${tr('Currency')}</label><select id="currency" name="currency">${input.currencies.map(
    (c) =>
      html`<option value="${c.code}"${c.code === f.currency ? html` selected` : null}>${c.code} · ${c.name}</option>`,
  )}</select></div>
<div class="field"><label for="expires_in">${tr('Expires in')}</label><select id="expires_in" name="expires_in">${EXPIRY_CHOICES.map(
    (c) => html`<option value="${c.value}"${c.value === f.expires_in ? html` selected` : null}>${c.label}</option>`,
  )}</select></div>
<fieldset class="pay-methods"><legend>${tr('Methods')}</legend>
<p class="hint">${tr('None chosen: every method that can take this amount and currency.')}</p>
${METHOD_TYPES.map(
  (t) =>
    html`<div class="pay-check"><input type="checkbox" id="method-${t}" name="methods" value="${t}"${f.methods.includes(t) ? html` checked` : null}> <label for="method-${t}">${METHOD_TYPE_NAMES[t]}</label></div>`,
)}
</fieldset>
<div class="field"><label for="external_id">${tr('External ID (optional)')}</label><input id="external_id" name="external_id" type="text" maxlength="255" value="${f.external_id}" aria-describedby="external-hint"><p class="hint" id="external-hint">${tr('Your own reference: an order number, a chat.')}</p></div>
<button type="submit">${tr('Create payment')}</button>
</form>`;
}

// ---- CSV ------------------------------------------------------------------------------------

/**
 * One CSV cell (RFC 4180), safe to open in a spreadsheet: a cell starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return would be read as a formula, so it gets a leading `'`.
 */
export function csvCell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
