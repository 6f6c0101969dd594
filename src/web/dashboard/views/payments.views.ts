import type { PaymentMethodType } from '../../../domain/payment-methods/payment-method.ts';
import type { Page } from '../../../domain/shared/page.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { cursorParam, withQuery } from '../../kit/query.ts';
import { t as tr } from '../i18n.ts';
import { problems } from './layout.ts';

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

/** Method types as merchants call them (the same English names as the checkout's). */
export const METHOD_TYPE_NAMES: Record<PaymentMethodType, string> = {
  CARD: 'Card',
  PIX: 'PIX',
  CRYPTO_ONCHAIN: 'Crypto',
  BANK_TRANSFER: 'Bank transfer',
  CASH: 'Cash',
};
export const METHOD_TYPES = Object.keys(METHOD_TYPE_NAMES) as PaymentMethodType[];

export function payerName(p: { firstName: string | null; lastName: string | null }): string {
  return [p.firstName, p.lastName].filter((x) => x !== null && x !== '').join(' ');
}

export function statusBadge(status: string): SafeHtml {
  return html`<span class="badge badge--${status.toLowerCase()}" data-test="status">${status}</span>`;
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

function pager(path: string, filters: FilterForm, page: Page<unknown>, paged: boolean): SafeHtml | null {
  const links: SafeHtml[] = [];
  if (paged) {
    links.push(html`<a href="${withQuery(path, filters)}">${tr('First page')}</a>`);
  }
  if (page.hasMore && page.next) {
    links.push(
      html`<a href="${withQuery(path, { ...filters, after: cursorParam(page.next) })}" rel="next" data-test="next-page">${tr('Next page')}</a>`,
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

/** What tells the payment orders' list page from the checkout preferences'. */
export type ListPageParts<T> = {
  tab: 'orders' | 'preferences';
  /** The list's path under the base (its export is the same path with `.csv`). */
  path: string;
  filterLabel: string;
  statuses: readonly string[];
  /** A line under the filters, when the filters need one. */
  hint?: SafeHtml;
  exportLabel: string;
  /** The table's `data-test`. */
  table: string;
  caption: string;
  /** Column headings; `true` for a numeric (right-aligned) column. */
  columns: readonly (readonly [string, boolean?])[];
  empty: string;
  row: (item: T) => SafeHtml;
};

/**
 * A filtered list of the Payments section: heading, tabs, filters and their problems, then
 * (when the filters were valid) the CSV export link, the table, newest first, and the pager.
 */
export function listPage<T>(k: PaymentsKit, parts: ListPageParts<T>, input: ListInput<T>): SafeHtml {
  const path = `${k.base}${parts.path}`;
  const page = input.page;
  return html`<h1>Payments</h1>
${tabs(k, parts.tab, input.canCreate)}
${filterForm(path, parts.filterLabel, input.form, parts.statuses)}${parts.hint ? html`\n${parts.hint}` : null}
${problems(input.problems)}
${
  page
    ? html`<p><a href="${withQuery(`${path}.csv`, input.form)}" data-test="export-csv">${parts.exportLabel}</a></p>
<div class="table-wrap" tabindex="0"><table data-test="${parts.table}"><caption>${parts.caption}</caption>
<thead><tr>${parts.columns.map(([label, numeric]) => html`<th scope="col"${numeric ? html` class="num"` : null}>${label}</th>`)}</tr></thead>
<tbody>${
        page.data.length === 0
          ? html`<tr><td colspan="${parts.columns.length}">${parts.empty}</td></tr>`
          : page.data.map(parts.row)
      }</tbody></table></div>
${pager(path, input.form, page, input.paged)}`
    : null
}`;
}
