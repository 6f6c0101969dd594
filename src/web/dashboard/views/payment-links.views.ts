import type { Currency } from '../../../domain/currencies/currency.ts';
import type { PlanFigures } from '../../../domain/dashboard/stats.ts';
import type { PaymentLink } from '../../../domain/subscriptions/payment-link.ts';
import { INTERVAL_TYPES } from '../../../domain/subscriptions/payment-link.ts';
import { RECURRENT_PAYMENT_STATUSES } from '../../../domain/subscriptions/recurrent-payment.status.ts';
import type { RecurrentPayment } from '../../../domain/subscriptions/recurrent-payment.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html, trustedMarkup } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import { csrfField, problems, time } from './layout.ts';
import { subscriberTable } from './recurrent-payments.views.ts';
import type { MoneyFormat } from './subscription-terms.views.ts';
import { lengthText, priceText, statusBadge, trialText, UNIT } from './subscription-terms.views.ts';

// Plans (payment links): the list, the form that creates a plan or its next version, a plan's page, archiving.

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
