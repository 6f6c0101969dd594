import type { PaymentOrder } from '../../../domain/payment-orders/payment-order.ts';
import { periodBounds } from '../../../domain/subscriptions/billing-schedule.ts';
import type { PaymentLink } from '../../../domain/subscriptions/payment-link.ts';
import type { RecurrentPaymentStatus } from '../../../domain/subscriptions/recurrent-payment.status.ts';
import { RECURRENT_PAYMENT_STATUSES } from '../../../domain/subscriptions/recurrent-payment.status.ts';
import type { RecurrentPayment } from '../../../domain/subscriptions/recurrent-payment.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import { csrfField, problems, time } from './layout.ts';
import type { MoneyFormat } from './subscription-terms.views.ts';
import { lengthText, priceText, statusBadge, trialText } from './subscription-terms.views.ts';

// Subscribers (recurrent payments): the list, a subscriber's page with its periods and charges, cancelling.

/** The subscriber page shows the latest periods; the charges table pages through all of them. */
const PERIODS_SHOWN = 24;

export function payerName(payer: RecurrentPayment['payer']): string {
  const name = [payer.firstName, payer.lastName].filter((x) => x !== null && x !== '').join(' ');
  return name || payer.email || '—';
}

/** Subscribers in a table: the subscriber list, and the latest ones on a plan's page. */
export function subscriberTable(
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

// ---- the subscriber page's derived parts ---------------------------------------------------------

/** The periods from the anchor: the paid ones and the one now due (latest first, the last few). */
export function periodsOf(
  rec: RecurrentPayment,
  charges: readonly PaymentOrder[],
): { periods: PeriodRow[]; periodsShown: string | null } {
  if (rec.anchorAt === null) {
    return { periods: [], periodsShown: null };
  }
  const billing = rec.status === 'ACTIVE' || rec.status === 'TRIALING' || rec.status === 'UNPAID';
  const more = rec.intervalCount === null || rec.periodsPaid < rec.intervalCount;
  const open = more && (billing || rec.failedAttempts > 0);
  const total = rec.periodsPaid + (open ? 1 : 0);
  const first = Math.max(0, total - PERIODS_SHOWN);
  const periods: PeriodRow[] = [];
  for (let k = total - 1; k >= first; k--) {
    const bounds = periodBounds(rec.anchorAt, rec.intervalType, k);
    const state =
      k < rec.periodsPaid
        ? 'Paid'
        : rec.failedAttempts > 0
          ? rec.failedAttempts === 1
            ? tr('Unpaid: 1 failed try')
            : tr('Unpaid: {count} failed tries', { count: rec.failedAttempts })
          : billing
            ? 'Upcoming'
            : tr('Not charged');
    periods.push({
      index: k,
      start: bounds.start,
      end: bounds.end,
      state,
      charges: charges.filter((o) => o.periodIndex === k),
    });
  }
  return { periods, periodsShown: total > PERIODS_SHOWN ? `the latest ${PERIODS_SHOWN} of ${total}` : null };
}

/** Where the subscription stands with failed renewals: tries so far, the next retry, the policy. */
export function dunningOf(
  rec: RecurrentPayment,
  policy: { retryDays: readonly number[]; cancelWhenRetriesExhausted: boolean },
): SafeHtml {
  const period = rec.periodsPaid + 1;
  const tries = (n: number) => `${n} ${n === 1 ? 'time' : 'times'}`;
  const retries = policy.retryDays.length;
  const state =
    rec.status === 'UNPAID' && rec.nextPaymentDate !== null
      ? html`<p data-test="dunning-state">The payment of period ${period} failed ${tries(rec.failedAttempts)}. Next try: <span data-test="next-retry">${time(rec.nextPaymentDate)}</span> (retry ${Math.min(rec.failedAttempts, retries)} of ${retries}).</p>`
      : rec.status === 'UNPAID'
        ? html`<p data-test="dunning-state">The payment of period ${period} failed ${tries(rec.failedAttempts)} and every retry is used: no further automatic charge. It is tried again if the subscriber saves another card on their page.</p>`
        : rec.status === 'CANCELED' && rec.deletedBy === 'retries_exhausted'
          ? html`<p data-test="dunning-state">Cancelled after the payment of period ${period} failed ${tries(rec.failedAttempts)}.</p>`
          : html`<p data-test="dunning-state">No failed payment${rec.status === 'ACTIVE' || rec.status === 'TRIALING' ? ': the subscription is up to date' : ''}.</p>`;
  const days = policy.retryDays.map((d) => String(d)).join(', ');
  return html`${state}
<p class="hint">A failed renewal is retried ${retries === 0 ? 'never' : `${days} days after its due date`}; after the last try the subscription ${policy.cancelWhenRetriesExhausted ? 'is cancelled' : 'stays unpaid'}.</p>`;
}
