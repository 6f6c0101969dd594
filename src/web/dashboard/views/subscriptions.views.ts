import type { Currency } from '../../../domain/currencies/currency.ts';
import type { PlanFigures } from '../../../domain/dashboard/stats.ts';
import type { PaymentOrder } from '../../../domain/payment-orders/payment-order.ts';
import type { IntervalType, PaymentLink } from '../../../domain/subscriptions/payment-link.ts';
import { INTERVAL_TYPES } from '../../../domain/subscriptions/payment-link.ts';
import type { RecurrentPaymentStatus } from '../../../domain/subscriptions/recurrent-payment.status.ts';
import { RECURRENT_PAYMENT_STATUSES } from '../../../domain/subscriptions/recurrent-payment.status.ts';
import type { RecurrentPayment } from '../../../domain/subscriptions/recurrent-payment.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html, trustedMarkup } from '../../kit/html.ts';
import { formatTime, t as tr } from '../i18n.ts';
import { csrfField, problems } from './layout.ts';

/** Money in the reader's language: `money(999n, 'USD')` → `$9.99`. */
export type MoneyFormat = (amountMinor: bigint, currency: string) => string;

const UNIT: Readonly<Record<IntervalType, readonly [string, string]>> = {
  DAY: ['day', 'days'],
  WEEK: ['week', 'weeks'],
  MONTH: ['month', 'months'],
  YEAR: ['year', 'years'],
};

const units = (count: number, type: IntervalType): string => `${count} ${UNIT[type][count === 1 ? 0 : 1]}`;

export const time = (ms: number | null): SafeHtml | string =>
  ms === null ? '—' : html`<time datetime="${new Date(ms).toISOString()}">${formatTime(ms)}</time>`;

/** `$9.99 / month`. */
export const priceText = (money: MoneyFormat, amountMinor: bigint, currency: string, type: IntervalType): string =>
  `${money(amountMinor, currency)} / ${UNIT[type][0]}`;

/** `12 months` or `Until cancelled`. */
export const lengthText = (intervalCount: number | null, type: IntervalType): string =>
  intervalCount === null ? 'Until cancelled' : units(intervalCount, type);

export const trialText = (type: IntervalType | null, count: number): string =>
  type !== null && count > 0 ? `${units(count, type)} free` : 'No trial';

export const statusBadge = (status: string): SafeHtml =>
  html`<span class="badge" data-status="${status}" data-test="status">${status}</span>`;

export function payerName(payer: RecurrentPayment['payer']): string {
  const name = [payer.firstName, payer.lastName].filter((x) => x !== null && x !== '').join(' ');
  return name || payer.email || '—';
}

// ---- plans -----------------------------------------------------------------------------------

export type PlanRow = { plan: PaymentLink; figures: PlanFigures | undefined };

export function planListPage(input: {
  base: string;
  canWrite: boolean;
  money: MoneyFormat;
  rows: readonly PlanRow[];
  status: 'ACTIVE' | 'ARCHIVED' | '';
  nextHref: string | null;
  notice: string | null;
}): SafeHtml {
  const { base, money } = input;
  return html`<h1>Subscriptions</h1>
${input.notice ? html`<p class="notice" role="status" data-test="notice">${input.notice}</p>` : null}
<p class="toolbar">${input.canWrite ? html`<a class="button" href="${base}/payment_links/new" data-test="new-plan">${tr('New plan')}</a>` : null}
<a class="button button--secondary" href="${base}/recurrent_payments">${tr('All subscribers')}</a></p>
<form method="get" action="${base}/subscriptions" class="toolbar">
<div class="field"><label for="plan-status">${tr('Status')}</label><select id="plan-status" name="status">
${[
  ['', 'Any'],
  ['ACTIVE', 'Active'],
  ['ARCHIVED', 'Archived'],
].map(
  ([value, label]) =>
    html`<option value="${value}"${value === input.status ? html` selected` : null}>${label}</option>`,
)}
</select></div>
<button type="submit" class="button--secondary">${tr('Filter')}</button>
</form>
<div class="table-wrap" tabindex="0"><table data-test="plans"><caption>${tr('Plans, newest first')}</caption>
<thead><tr><th scope="col">${tr('Plan')}</th><th scope="col" class="num">${tr('Price')}</th><th scope="col">${tr('Runs')}</th><th scope="col">${tr('Status')}</th><th scope="col" class="num">${tr('Subscribers')}</th><th scope="col" class="num">MRR</th></tr></thead>
<tbody>${
    input.rows.length === 0
      ? html`<tr><td colspan="6">No plans yet.${input.canWrite ? html` <a href="${base}/payment_links/new">${tr('Create the first one')}</a>.` : null}</td></tr>`
      : input.rows.map(
          ({ plan, figures }) => html`<tr data-plan="${plan.id}">
<td><a href="${base}/payment_links/${plan.id}">${plan.title}</a></td>
<td class="num">${priceText(money, plan.amountMinor, plan.currency, plan.intervalType)}</td>
<td>${lengthText(plan.intervalCount, plan.intervalType)}</td>
<td>${statusBadge(plan.status)}</td>
<td class="num"><a href="${base}/recurrent_payments?plan=${plan.id}" data-test="subscribers">${figures?.subscribers ?? 0}</a></td>
<td class="num" data-test="mrr">${money(figures?.mrrMinor ?? 0n, plan.currency)}</td>
</tr>`,
        )
  }</tbody></table></div>
${input.nextHref ? html`<p><a href="${input.nextHref}" data-test="next-page">${tr('Next page')}</a></p>` : null}`;
}

/** The plan form's fields as typed (shown again after a refused submission). */
export type PlanFormValues = {
  title: string;
  amount: string;
  currency: string;
  interval_type: string;
  interval_count: string;
  trial_interval_type: string;
  trial_interval_count: string;
  signup_fee_amount: string;
};

export type PlanFormField = keyof PlanFormValues;

export type PlanFormErrors = { fields: Partial<Record<PlanFormField, string[]>>; general: string[] };

export const NO_ERRORS: PlanFormErrors = { fields: {}, general: [] };

export const EMPTY_PLAN_FORM: PlanFormValues = {
  title: '',
  amount: '',
  currency: 'USD',
  interval_type: 'MONTH',
  interval_count: '',
  trial_interval_type: '',
  trial_interval_count: '',
  signup_fee_amount: '',
};

function fieldAttrs(key: PlanFormField, errors: PlanFormErrors, hint: boolean): SafeHtml {
  const described = [...(hint ? [`${key}-hint`] : []), ...(errors.fields[key] ? [`${key}-error`] : [])];
  return html`${described.length > 0 ? html` aria-describedby="${described.join(' ')}"` : null}${errors.fields[key] ? html` aria-invalid="true"` : null}`;
}

function fieldError(key: PlanFormField, errors: PlanFormErrors): SafeHtml | null {
  const list = errors.fields[key];
  return list
    ? html`<span class="field-error" id="${key}-error" data-test="error-${key}">${list.join(' ')}</span>`
    : null;
}

function intervalOptions(selected: string, none: string | null): SafeHtml[] {
  return [
    ...(none !== null ? [html`<option value=""${selected === '' ? html` selected` : null}>${none}</option>`] : []),
    ...INTERVAL_TYPES.map(
      (type) => html`<option value="${type}"${type === selected ? html` selected` : null}>${UNIT[type][1]}</option>`,
    ),
  ];
}

/** Create (no `editing`) or edit a plan; the same fields and rules as POST /v1/payment_links. */
export function planFormPage(input: {
  action: string;
  csrf: string;
  values: PlanFormValues;
  errors: PlanFormErrors;
  currencies: readonly Currency[];
  editing: { plan: PaymentLink; nextVersion: number } | null;
  cancelHref: string;
}): SafeHtml {
  const { values: v, errors } = input;
  const all = [...input.errors.general, ...Object.values(input.errors.fields).flat()];
  const text = (
    key: PlanFormField,
    label: string,
    opts: { hint?: string; inputmode?: string; required?: boolean; maxlength?: number } = {},
  ) => html`<div class="field${errors.fields[key] ? ' field--error' : ''}"><label for="${key}">${label}</label>
${opts.hint ? html`<span class="hint" id="${key}-hint">${opts.hint}</span>` : null}${fieldError(key, errors)}
<input id="${key}" name="${key}" type="text" value="${v[key]}"${opts.inputmode ? html` inputmode="${opts.inputmode}"` : null}${opts.maxlength ? html` maxlength="${opts.maxlength}"` : null}${opts.required ? html` required` : null}${fieldAttrs(key, errors, opts.hint !== undefined)}></div>`;
  const editing = input.editing;
  return html`<h1>${editing ? html`Edit plan: ${editing.plan.title}` : 'New plan'}</h1>
${
  editing
    ? html`<p class="notice" role="note" data-test="version-note">Saving creates version ${editing.nextVersion} of this plan (it is at version ${editing.plan.version}). <strong>${tr('Current subscribers keep the terms they signed up on')}</strong>${tr(': the new terms apply only to checkouts opened from now on.')}</p>`
    : null
}
${problems(all)}
<form method="post" action="${input.action}" novalidate>${csrfField(input.csrf)}
${editing ? html`<input type="hidden" name="version" value="${editing.plan.version}">` : null}
${text('title', 'Title', { required: true, maxlength: 255, hint: 'What the payer sees on the checkout and in e-mails.' })}
${text('amount', 'Amount per period', { required: true, inputmode: 'decimal', hint: 'For example 9.99. Between 0.10 and 3,000.00 USD or its equivalent.' })}
<div class="field${errors.fields.currency ? ' field--error' : ''}"><label for="currency">${tr('Currency')}</label>
${
  editing
    ? html`<span class="hint" id="currency-hint">${tr("A plan's currency cannot change: create a new plan for another currency.")}</span>
<input id="currency" type="text" value="${editing.plan.currency}" readonly aria-describedby="currency-hint">`
    : html`${fieldError('currency', errors)}<select id="currency" name="currency"${fieldAttrs('currency', errors, false)}>${input.currencies.map(
        (c) =>
          html`<option value="${c.code}"${c.code === v.currency ? html` selected` : null}>${c.code} — ${c.name}</option>`,
      )}</select>`
}</div>
<div class="field${errors.fields.interval_type ? ' field--error' : ''}"><label for="interval_type">${tr('Billed every')}</label>${fieldError('interval_type', errors)}
<select id="interval_type" name="interval_type"${fieldAttrs('interval_type', errors, false)}>${INTERVAL_TYPES.map(
    (type) =>
      html`<option value="${type}"${type === v.interval_type ? html` selected` : null}>${UNIT[type][0]}</option>`,
  )}</select></div>
${text('interval_count', 'Number of periods', { inputmode: 'numeric', hint: 'How many periods the subscription runs (1 to 1000). Leave empty to run until cancelled.' })}
<fieldset><legend>${tr('Free trial')}</legend>
${text('trial_interval_count', 'Trial length', { inputmode: 'numeric', hint: 'Leave empty for no trial.' })}
<div class="field${errors.fields.trial_interval_type ? ' field--error' : ''}"><label for="trial_interval_type">${tr('Trial unit')}</label>${fieldError('trial_interval_type', errors)}
<select id="trial_interval_type" name="trial_interval_type"${fieldAttrs('trial_interval_type', errors, false)}>${intervalOptions(v.trial_interval_type, 'No trial')}</select></div>
</fieldset>
${text('signup_fee_amount', 'Sign-up fee', { inputmode: 'decimal', hint: 'Charged once with the first payment. Leave empty for none.' })}
<p class="toolbar"><button type="submit" data-test="save-plan">${editing ? 'Save as a new version' : 'Create plan'}</button>
<a href="${input.cancelHref}">${tr('Cancel')}</a></p>
</form>`;
}

export function planPage(input: {
  base: string;
  canWrite: boolean;
  money: MoneyFormat;
  plan: PaymentLink;
  figures: PlanFigures | undefined;
  publicLink: string;
  qr: string;
  subscribers: readonly RecurrentPayment[];
  moreSubscribers: boolean;
  notice: string | null;
}): SafeHtml {
  const { base, money, plan } = input;
  const f = input.figures;
  const gross =
    plan.intervalCount === null ? null : plan.amountMinor * BigInt(plan.intervalCount) + plan.signupFeeMinor;
  const statuses = RECURRENT_PAYMENT_STATUSES.filter((s) => (f?.byStatus[s] ?? 0) > 0);
  return html`<p><a href="${base}/subscriptions">${tr('← Plans')}</a></p>
<h1 data-test="plan-title">${plan.title}</h1>
${input.notice ? html`<p class="notice" role="status" data-test="notice">${input.notice}</p>` : null}
<p>${statusBadge(plan.status)} <span data-test="plan-version">Version ${plan.version}</span>, updated ${time(plan.updatedAt)}</p>
${
  input.canWrite && plan.status === 'ACTIVE'
    ? html`<p class="toolbar"><a class="button" href="${base}/payment_links/${plan.id}/edit" data-test="edit-plan">${tr('Edit plan')}</a>
<a class="button button--secondary" href="${base}/payment_links/${plan.id}/archive" data-test="archive-plan">${tr('Archive plan')}</a></p>`
    : null
}
${plan.status === 'ARCHIVED' ? html`<p class="notice" role="note">${tr('This plan is archived: it starts no new subscription, and its public link says so. Its subscribers continue.')}</p>` : null}
<ul class="tiles" data-test="plan-figures">
<li class="tile"><span class="label">${tr('Active subscribers')}</span><span class="value" data-test="subscriber-count">${f?.subscribers ?? 0}</span></li>
<li class="tile"><span class="label">${tr('Of which in trial')}</span><span class="value">${f?.byStatus.TRIALING ?? 0}</span></li>
<li class="tile"><span class="label">MRR</span><span class="value" data-test="plan-mrr">${money(f?.mrrMinor ?? 0n, plan.currency)}</span></li>
<li class="tile"><span class="label">${tr('MRR after trials')}</span><span class="value">${money((f?.mrrMinor ?? 0n) + (f?.trialingMrrMinor ?? 0n), plan.currency)}</span></li>
</ul>
<section class="dash-section" aria-labelledby="terms"><h2 id="terms">Current terms (version ${plan.version})</h2>
<dl class="facts" data-test="terms">
<dt>${tr('Price')}</dt><dd data-test="price">${priceText(money, plan.amountMinor, plan.currency, plan.intervalType)}</dd>
<dt>${tr('Runs')}</dt><dd>${lengthText(plan.intervalCount, plan.intervalType)}</dd>
<dt>${tr('Trial')}</dt><dd>${trialText(plan.trialIntervalType, plan.trialIntervalCount)}</dd>
<dt>${tr('Sign-up fee')}</dt><dd>${plan.signupFeeMinor > 0n ? money(plan.signupFeeMinor, plan.currency) : 'None'}</dd>
<dt>${tr('Whole plan')}</dt><dd>${gross === null ? 'Until cancelled' : money(gross, plan.currency)}</dd>
${plan.externalId ? html`<dt>${tr('External id')}</dt><dd><code>${plan.externalId}</code></dd>` : null}
<dt>Id</dt><dd><code>${plan.id}</code></dd>
<dt>${tr('Created')}</dt><dd>${time(plan.createdAt)}</dd>
</dl>
<p class="hint">${tr('Subscribers keep the terms of the version they signed up on; edits apply to new checkouts.')}</p>
</section>
<section class="dash-section" aria-labelledby="link"><h2 id="link">${tr('Public link')}</h2>
<p>${tr('Anyone who opens this link gets a checkout for this plan.')}</p>
<p><a href="${input.publicLink}" data-test="public-link" rel="noopener">${input.publicLink}</a></p>
<div class="qr">${trustedMarkup(input.qr)}</div>
</section>
<section class="dash-section" aria-labelledby="subs"><h2 id="subs">${tr('Subscribers')}</h2>
${
  statuses.length > 0
    ? html`<p data-test="status-counts">${statuses.map((s, i) => html`${i > 0 ? ', ' : ''}${s}: ${f?.byStatus[s] ?? 0}`)}</p>`
    : null
}
${subscriberTable(base, money, input.subscribers, 'Latest subscribers', false)}
${input.moreSubscribers || input.subscribers.length > 0 ? html`<p><a href="${base}/recurrent_payments?plan=${plan.id}">${tr('All subscribers of this plan')}</a></p>` : null}
</section>`;
}

export function archivePage(input: {
  base: string;
  csrf: string;
  plan: PaymentLink;
  problem: string | null;
}): SafeHtml {
  const { base, plan } = input;
  return html`<p><a href="${base}/payment_links/${plan.id}">← ${plan.title}</a></p>
<h1>Archive plan “${plan.title}”?</h1>
${input.problem ? problems([input.problem]) : null}
${
  plan.status === 'ARCHIVED'
    ? html`<p data-test="already-archived">${tr('This plan is already archived.')}</p>`
    : html`<p>${tr('Archiving stops new subscriptions: new checkouts and the public link no longer sell this plan. Current subscribers continue and are billed as before. This cannot be undone.')}</p>
<form method="post" action="${base}/payment_links/${plan.id}/archive">${csrfField(input.csrf)}
<p class="toolbar"><button type="submit" data-test="confirm-archive">${tr('Archive plan')}</button> <a href="${base}/payment_links/${plan.id}">${tr('Keep it')}</a></p>
</form>`
}`;
}

// ---- subscribers -----------------------------------------------------------------------------

function subscriberTable(
  base: string,
  money: MoneyFormat,
  rows: readonly RecurrentPayment[],
  caption: string,
  showPlan: boolean,
): SafeHtml {
  return html`<div class="table-wrap" tabindex="0"><table data-test="subscribers"><caption>${caption}</caption>
<thead><tr><th scope="col">${tr('Subscriber')}</th>${showPlan ? html`<th scope="col">${tr('Plan')}</th>` : null}<th scope="col" class="num">${tr('Amount')}</th><th scope="col">${tr('Status')}</th><th scope="col">${tr('Next due')}</th><th scope="col">${tr('Since')}</th></tr></thead>
<tbody>${
    rows.length === 0
      ? html`<tr><td colspan="${showPlan ? 6 : 5}">${tr('No subscribers.')}</td></tr>`
      : rows.map(
          (r) => html`<tr data-recurrent-payment="${r.id}">
<td><a href="${base}/recurrent_payments/${r.id}">${payerName(r.payer)}</a>${r.payer.email && payerName(r.payer) !== r.payer.email ? html`<br><span class="hint">${r.payer.email}</span>` : null}</td>
${showPlan ? html`<td><a href="${base}/payment_links/${r.paymentLinkId}">${r.title}</a></td>` : null}
<td class="num">${priceText(money, r.amountMinor, r.currency, r.intervalType)}</td>
<td>${statusBadge(r.status)}</td>
<td>${time(r.nextPaymentDate)}</td>
<td>${time(r.createdAt)}</td>
</tr>`,
        )
  }</tbody></table></div>`;
}

export function subscriberListPage(input: {
  base: string;
  money: MoneyFormat;
  rows: readonly RecurrentPayment[];
  status: RecurrentPaymentStatus | '';
  plan: string;
  plans: readonly PaymentLink[];
  nextHref: string | null;
}): SafeHtml {
  const { base } = input;
  const knownPlan = input.plan === '' || input.plans.some((p) => p.id === input.plan);
  return html`<p><a href="${base}/subscriptions">${tr('← Plans')}</a></p>
<h1>${tr('Subscribers')}</h1>
<form method="get" action="${base}/recurrent_payments" class="toolbar">
<div class="field"><label for="sub-status">${tr('Status')}</label><select id="sub-status" name="status">
<option value=""${input.status === '' ? html` selected` : null}>${tr('Any')}</option>
${RECURRENT_PAYMENT_STATUSES.map((s) => html`<option value="${s}"${s === input.status ? html` selected` : null}>${s}</option>`)}
</select></div>
<div class="field"><label for="sub-plan">${tr('Plan')}</label><select id="sub-plan" name="plan">
<option value=""${input.plan === '' ? html` selected` : null}>${tr('Any')}</option>
${knownPlan ? null : html`<option value="${input.plan}" selected>${input.plan}</option>`}
${input.plans.map((p) => html`<option value="${p.id}"${p.id === input.plan ? html` selected` : null}>${p.title} (${p.currency})</option>`)}
</select></div>
<button type="submit" class="button--secondary">${tr('Filter')}</button>
</form>
${subscriberTable(base, input.money, input.rows, 'Subscriptions, newest first', true)}
${input.nextHref ? html`<p><a href="${input.nextHref}" data-test="next-page">${tr('Next page')}</a></p>` : null}`;
}

/** One row of the subscriber page's period table. */
export type PeriodRow = { index: number; start: number; end: number; state: string; charges: readonly PaymentOrder[] };

export function subscriberPage(input: {
  base: string;
  money: MoneyFormat;
  rec: RecurrentPayment;
  canCancel: boolean;
  cancellable: boolean;
  periods: readonly PeriodRow[];
  periodsShown: string | null;
  charges: readonly PaymentOrder[];
  chargesNextHref: string | null;
  dunning: SafeHtml;
  notice: string | null;
}): SafeHtml {
  const { base, money, rec } = input;
  const method =
    rec.paymentMethodType === 'CARD' && rec.cardLast4
      ? `Card, ${rec.cardBrand ?? 'card'} ending in ${rec.cardLast4}`
      : rec.paymentMethodType;
  return html`<p><a href="${base}/recurrent_payments">${tr('← Subscribers')}</a></p>
<h1 data-test="subscriber-name">${payerName(rec.payer)}</h1>
${input.notice ? html`<p class="notice" role="status" data-test="notice">${input.notice}</p>` : null}
<p>${statusBadge(rec.status)} on <a href="${base}/payment_links/${rec.paymentLinkId}" data-test="plan-link">${rec.title}</a> (version ${rec.planVersion})</p>
${
  input.canCancel && input.cancellable
    ? html`<form method="get" action="${base}/recurrent_payments/${rec.id}/cancel" class="toolbar"><button type="submit" class="button--secondary" data-test="cancel-subscription">${tr('Cancel subscription')}</button></form>`
    : null
}
<section class="dash-section" aria-labelledby="facts"><h2 id="facts">${tr('Subscription')}</h2>
<dl class="facts" data-test="facts">
<dt>${tr('Subscriber')}</dt><dd>${payerName(rec.payer)}${rec.payer.email ? html` &lt;${rec.payer.email}&gt;` : null}</dd>
${rec.payer.phoneNumber ? html`<dt>${tr('Phone')}</dt><dd>${rec.payer.phoneNumber}</dd>` : null}
<dt>${tr('Amount')}</dt><dd>${priceText(money, rec.amountMinor, rec.currency, rec.intervalType)}</dd>
<dt>${tr('Runs')}</dt><dd>${lengthText(rec.intervalCount, rec.intervalType)}</dd>
<dt>${tr('Trial')}</dt><dd>${trialText(rec.trialIntervalType, rec.trialIntervalCount)}</dd>
<dt>${tr('Sign-up fee')}</dt><dd>${rec.signupFeeMinor > 0n ? money(rec.signupFeeMinor, rec.currency) : 'None'}</dd>
<dt>${tr('Periods paid')}</dt><dd data-test="periods-paid">${rec.periodsPaid}${rec.intervalCount === null ? null : ` of ${rec.intervalCount}`}</dd>
<dt>${tr('Current period')}</dt><dd>${rec.currentPeriodStart === null ? '—' : html`${time(rec.currentPeriodStart)} to ${time(rec.currentPeriodEnd)}`}</dd>
<dt>${tr('Next due')}</dt><dd data-test="next-due">${time(rec.nextPaymentDate)}</dd>
<dt>${tr('Payment method')}</dt><dd>${method}</dd>
${rec.externalId ? html`<dt>${tr('External id')}</dt><dd><code>${rec.externalId}</code></dd>` : null}
<dt>${tr('Started')}</dt><dd>${time(rec.createdAt)}</dd>
${rec.canceledAt !== null ? html`<dt>${tr('Cancelled')}</dt><dd data-test="canceled">${time(rec.canceledAt)} by ${rec.deletedBy ?? 'unknown'}</dd>` : null}
<dt>Id</dt><dd><code>${rec.id}</code></dd>
</dl></section>
<section class="dash-section" aria-labelledby="dunning"><h2 id="dunning">${tr('Failed payments')}</h2>${input.dunning}</section>
<section class="dash-section" aria-labelledby="periods"><h2 id="periods">${tr('Periods')}</h2>
${
  input.periods.length === 0
    ? html`<p>No billing period yet${rec.status === 'TRIALING' ? ': the first one starts when the trial ends' : ''}.</p>`
    : html`<div class="table-wrap" tabindex="0"><table data-test="periods"><caption>Billing periods, latest first${input.periodsShown ? html` (${input.periodsShown})` : null}</caption>
<thead><tr><th scope="col" class="num">${tr('Period')}</th><th scope="col">${tr('From')}</th><th scope="col">${tr('To')}</th><th scope="col">${tr('State')}</th><th scope="col">${tr('Charges')}</th></tr></thead>
<tbody>${input.periods.map(
        (
          p,
        ) => html`<tr><td class="num">${p.index + 1}</td><td>${time(p.start)}</td><td>${time(p.end)}</td><td>${p.state}</td>
<td>${p.charges.map((o, i) => html`${i > 0 ? ', ' : ''}<a href="${base}/payment_orders/${o.id}">${o.status}</a>`)}</td></tr>`,
      )}</tbody></table></div>`
}
</section>
<section class="dash-section" aria-labelledby="charges"><h2 id="charges">${tr('Charges')}</h2>
<div class="table-wrap" tabindex="0"><table data-test="charges"><caption>${tr('Payment orders of this subscription, newest first')}</caption>
<thead><tr><th scope="col">${tr('Order')}</th><th scope="col">${tr('Created')}</th><th scope="col">${tr('For')}</th><th scope="col" class="num">${tr('Amount')}</th><th scope="col">${tr('Method')}</th><th scope="col">${tr('Status')}</th></tr></thead>
<tbody>${
    input.charges.length === 0
      ? html`<tr><td colspan="6">${tr('No charge yet.')}</td></tr>`
      : input.charges.map(
          (
            o,
          ) => html`<tr data-order="${o.id}"><td><a href="${base}/payment_orders/${o.id}">${o.id}</a></td><td>${time(o.createdAt)}</td>
<td>${o.periodAttempt === null ? 'First payment' : `Period ${(o.periodIndex ?? 0) + 1}, try ${o.periodAttempt}`}</td>
<td class="num">${money(o.amountMinor, o.currency)}</td><td>${o.paymentMethodType}</td><td>${statusBadge(o.status)}</td></tr>`,
        )
  }</tbody></table></div>
${input.chargesNextHref ? html`<p><a href="${input.chargesNextHref}">${tr('Older charges')}</a></p>` : null}
</section>`;
}

export function cancelPage(input: {
  base: string;
  csrf: string;
  money: MoneyFormat;
  rec: RecurrentPayment;
  cancellable: boolean;
  problem: string | null;
}): SafeHtml {
  const { base, rec } = input;
  const back = `${base}/recurrent_payments/${rec.id}`;
  return html`<p><a href="${back}">← ${payerName(rec.payer)}</a></p>
<h1>Cancel the subscription of ${payerName(rec.payer)}?</h1>
${input.problem ? problems([input.problem]) : null}
<p>${rec.title}: ${priceText(input.money, rec.amountMinor, rec.currency, rec.intervalType)}, ${statusBadge(rec.status)}.</p>
${
  input.cancellable
    ? html`<p>${tr('No further payment will be charged, an open renewal is withdrawn, and the subscriber and your webhooks are told (')}<code>RECURRENT_PAYMENT.CANCELED</code>${tr('). This cannot be undone.')}</p>
<form method="post" action="${back}/cancel">${csrfField(input.csrf)}
<p class="toolbar"><button type="submit" data-test="confirm-cancel">${tr('Cancel subscription')}</button> <a href="${back}">${tr('Keep it')}</a></p>
</form>`
    : html`<p data-test="not-cancellable">This subscription is ${rec.status}: there is nothing to cancel.</p>`
}`;
}
