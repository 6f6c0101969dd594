import type { CheckoutPreference } from '../../../domain/checkout-preferences/checkout-preference.ts';
import type { PaymentOrder } from '../../../domain/payment-orders/payment-order.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import { csrfField, problems, time } from './layout.ts';
import type { ListInput, ListPageParts, PaymentsKit } from './payments.views.ts';
import { listPage, METHOD_TYPE_NAMES, METHOD_TYPES, payerName, statusBadge } from './payments.views.ts';

export const PREFERENCE_STATUS_OPTIONS = ['OPEN', 'PAID', 'EXPIRED'] as const;

/** The "expires in" choices of the create form, in minutes. */
export const EXPIRY_CHOICES = [
  { value: '15', label: '15 minutes' },
  { value: '60', label: '1 hour' },
  { value: '1440', label: '1 day' },
  { value: '4320', label: '3 days' },
  { value: '10080', label: '7 days' },
] as const;

/** The checkout preferences' list (the Payments section's second tab). */
export function preferencesListPage(k: PaymentsKit, input: ListInput<CheckoutPreference>): SafeHtml {
  const parts: ListPageParts<CheckoutPreference> = {
    tab: 'preferences',
    path: '/checkout_preferences',
    filterLabel: 'Filter checkout preferences',
    statuses: PREFERENCE_STATUS_OPTIONS,
    hint: html`<p class="hint">${tr("Method: the method of the preference's latest payment order. Payer e-mail: given when it was created, or typed by the payer.")}</p>`,
    exportLabel: tr('Export these checkout preferences as CSV'),
    table: 'preferences',
    caption: tr('Checkout preferences, newest first'),
    columns: [
      [tr('Created')],
      [tr('Title')],
      [tr('Amount'), true],
      [tr('Status')],
      [tr('Type')],
      [tr('Payer')],
      [tr('External ID')],
    ],
    empty: tr('No checkout preferences match.'),
    row: (p) => html`<tr data-test="preference-row" data-id="${p.id}"><td>${time(p.createdAt)}</td>
<td><a href="${k.base}/checkout_preferences/${p.id}">${p.title}</a></td>
<td class="num">${k.money(p.amountMinor, p.currency)}</td>
<td>${statusBadge(p.status)}</td>
<td>${p.type}</td>
<td>${p.payer.email ?? ''}</td>
<td>${p.externalId ?? ''}</td></tr>`,
  };
  return listPage(k, parts, input);
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
