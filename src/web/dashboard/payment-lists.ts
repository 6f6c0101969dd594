import { Readable } from 'node:stream';
import type { PaymentMethodType } from '../../domain/payment-methods/payment-method.ts';
import { AppError } from '../../domain/shared/errors.ts';
import { formatMinor } from '../../domain/shared/money.ts';
import type { Page, PageCursor, PageRequest } from '../../domain/shared/page.ts';
import type { Services } from '../../services.ts';
import { formField } from '../kit/form-input.ts';
import type { SafeHtml } from '../kit/html.ts';
import { parseCursorParam } from '../kit/query.ts';
import { formatMoney, t as tr } from './i18n.ts';
import type { DashRequest } from './router.ts';
import type { FilterForm, ListInput, PaymentsKit } from './views/payments.views.ts';
import { FILTER_FIELDS, METHOD_TYPES } from './views/payments.views.ts';

/**
 * What the payment orders' and the checkout preferences' routes share: the filters both lists
 * offer, the list page and its CSV export (the whole filtered list, streamed page by page).
 */

const PAGE_SIZE = 50;
/** The export reads the list in pages of this size and streams each as it comes. */
const EXPORT_PAGE_SIZE = 100;
const DAY_MS = 86_400_000;

/** What every payments view needs, for this request. */
export function paymentsKit({ ctx, services, csrfToken }: DashRequest): PaymentsKit {
  return {
    base: ctx.base,
    csrf: csrfToken(),
    money: (minor, currency) => formatMoney(minor, currency, services.currencies, ctx.m),
  };
}

/** The filters both lists take, checked; each service's filter type accepts it. */
export type ListFilter<S extends string> = {
  status?: S;
  paymentMethodType?: PaymentMethodType;
  createdGte?: number;
  createdLt?: number;
  externalId?: string;
  payerEmail?: string;
};

/** The filters as typed and as checked: what a list and its export both read. */
type ReadFilters<S extends string> = {
  form: FilterForm;
  problems: string[];
  cursor: PageCursor | null;
  filter: ListFilter<S>;
};

/** What a CSV row may use besides its item. */
export type CsvCells = {
  services: Services;
  /** The amount in the currency's own decimals, `16.90`. */
  amount: (amountMinor: bigint, currency: string) => string;
};

/** One of the two lists: what it reads, how it renders, how it exports. */
export type PaymentList<T, S extends string> = {
  title: () => string;
  statuses: readonly S[];
  read: (r: DashRequest, page: PageRequest, filter: ListFilter<S>) => Promise<Page<T>>;
  render: (kit: PaymentsKit, input: ListInput<T>) => SafeHtml;
  csv: { file: string; header: readonly string[]; row: (item: T, cells: CsvCells) => string[] };
};

function utcDay(label: string, value: string, problems: string[]): number | undefined {
  if (value === '') {
    return undefined;
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    problems.push(`${label} must be a date such as 2025-01-31`);
    return undefined;
  }
  return ms;
}

function readCursor(query: unknown, problems: string[]): PageCursor | null {
  try {
    return parseCursorParam(formField(query, 'after'));
  } catch (error) {
    if (error instanceof AppError) {
      problems.push('The page link is not valid: start again from the first page');
      return null;
    }
    throw error;
  }
}

function readFilters<S extends string>(query: unknown, statuses: readonly S[]): ReadFilters<S> {
  const form = Object.fromEntries(FILTER_FIELDS.map((f) => [f, formField(query, f).trim()])) as FilterForm;
  const problems: string[] = [];
  const filter: ListFilter<S> = {};
  if (form.status !== '') {
    const status = statuses.find((s) => s === form.status);
    if (status) {
      filter.status = status;
    } else {
      problems.push(tr('Status must be one of {values}', { values: statuses.join(', ') }));
    }
  }
  if (form.method !== '') {
    const type = METHOD_TYPES.find((t) => t === form.method);
    if (type) {
      filter.paymentMethodType = type;
    } else {
      problems.push(tr('Method must be one of {values}', { values: METHOD_TYPES.join(', ') }));
    }
  }
  const from = utcDay('Created from', form.created_from, problems);
  const to = utcDay('Created to', form.created_to, problems);
  if (from !== undefined) {
    filter.createdGte = from;
  }
  if (to !== undefined) {
    // The "to" day is included: everything before the next day's midnight (UTC).
    filter.createdLt = to + DAY_MS;
  }
  if (form.external_id !== '') {
    if ([...form.external_id].length > 255) {
      problems.push('External ID must be at most 255 characters');
    } else {
      filter.externalId = form.external_id;
    }
  }
  if (form.payer_email !== '') {
    if (form.payer_email.length > 254) {
      problems.push('Payer e-mail must be at most 254 characters');
    } else {
      filter.payerEmail = form.payer_email;
    }
  }
  const cursor = readCursor(query, problems);
  return { form, problems, cursor, filter };
}

/** A list page: 50 rows a page; filters that do not read are shown with their problems (400). */
export async function showList<T, S extends string>(r: DashRequest, list: PaymentList<T, S>) {
  const f = readFilters(r.req.query, list.statuses);
  const page = f.problems.length === 0 ? await list.read(r, { limit: PAGE_SIZE, cursor: f.cursor }, f.filter) : null;
  const body = list.render(paymentsKit(r), {
    form: f.form,
    problems: f.problems,
    page,
    paged: f.cursor !== null,
    canCreate: r.ctx.can('payments.write'),
  });
  return r.render('payments', list.title(), body, page ? 200 : 400);
}

/** The whole filtered list as a CSV attachment, `<file>-<mode>-<day>.csv`. */
export async function exportList<T, S extends string>(r: DashRequest, list: PaymentList<T, S>) {
  const { req, reply, ctx, services } = r;
  const f = readFilters(req.query, list.statuses);
  if (f.problems.length > 0) {
    throw new AppError('WRONG_INPUT', f.problems);
  }
  const decimals = (c: string) => services.currencies.decimalsOf(c);
  const cells: CsvCells = { services, amount: (minor, currency) => formatMinor(minor, decimals(currency)) };
  const chunks = csvChunks(
    list.csv.header,
    (page) => list.read(r, page, f.filter),
    (item) => list.csv.row(item, cells),
  );
  const filename = `${list.csv.file}-${ctx.mode}-${new Date().toISOString().slice(0, 10)}.csv`;
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(Readable.from(chunks, { objectMode: false }));
}

/** The whole filtered list, page after page, as CSV text chunks (header first). */
async function* csvChunks<T>(
  header: readonly string[],
  read: (page: PageRequest) => Promise<Page<T>>,
  row: (item: T) => string[],
): AsyncGenerator<Buffer> {
  yield Buffer.from(csvLine(header), 'utf8');
  let cursor: PageCursor | null = null;
  for (;;) {
    const page = await read({ limit: EXPORT_PAGE_SIZE, cursor });
    if (page.data.length > 0) {
      yield Buffer.from(page.data.map((item) => csvLine(row(item))).join(''), 'utf8');
    }
    if (!page.hasMore || !page.next) {
      return;
    }
    cursor = page.next;
  }
}

/** A time as the export writes it: `2025-01-31T12:00:00Z`, '' for none. */
export const iso = (ms: number | null): string =>
  ms === null ? '' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * One CSV cell (RFC 4180), safe to open in a spreadsheet: a cell starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return would be read as a formula, so it gets a leading `'`.
 */
function csvCell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
}

function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
