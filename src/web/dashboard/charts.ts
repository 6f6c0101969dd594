import type { ConversionFigures, DailyPoint, MethodMixEntry } from '../../domain/dashboard/stats.ts';
import type { PaymentMethodType } from '../../domain/payment-methods/payment-method.ts';
import type { SafeHtml } from '../kit/html.ts';
import { html } from '../kit/html.ts';

/**
 * The home page's charts: pure functions from figures to markup, built only with the `html`
 * tag, so every label, title and formatted value is escaped.
 *
 * Each chart is a `<figure>`: a visible caption, an inline SVG (`role="img"` with `<title>` and
 * `<desc>` summarising it for screen readers) and the same data as a `<table>` inside
 * `<details>`, readable without JavaScript, CSS or the picture. No `style` attribute and no
 * script (the dashboard's CSP is `style-src 'self'`): colours and sizes come from presentation
 * attributes (`fill="currentColor"`, `font-size`), which the stylesheet overrides through the
 * classes below.
 *
 * Responsive from 390 to 1440 px: the outer SVG is `width="100%"` with a fixed height in px,
 * so its text keeps its size; the bars are drawn in nested SVGs with a `viewBox` and
 * `preserveAspectRatio="none"`, so they stretch with the width. Text is never stretched.
 *
 * Classes: `chart`, `chart--daily-volume`, `chart--method-mix`, `chart--conversion`,
 * `chart--empty`, `chart-title`, `chart-empty`, `chart-svg`, `chart-plot`, `chart-grid`,
 * `chart-axis`, `chart-bar`, `chart-bar--<method>` (`chart-bar--card`, `chart-bar--pix`,
 * `chart-bar--crypto-onchain`, `chart-bar--bank-transfer`, `chart-bar--cash`),
 * `chart-bar--created`, `chart-bar--paid`, `chart-track`, `chart-label`, `chart-label--max`,
 * `chart-label--start`, `chart-label--end`, `chart-label--value`, `chart-data`, `chart-table`,
 * `chart-num` (numeric table cells). Tests find the charts by `data-test="chart-<kind>"`.
 */

/** What every chart takes. */
export type ChartOptions = {
  /** Shown as the figure's caption, the SVG's `<title>` and the table's `<caption>`. */
  title: string;
  /** Element id prefix (letters, digits, `-`, `_`); must be unique on the page. Defaults to the chart's kind. */
  id?: string;
  /** Replaces the generated `<desc>` summary (e.g. a translated sentence). */
  description?: string;
  /** Counts as text, e.g. `new Intl.NumberFormat(locale).format`; default plain digits. */
  formatNumber?: (n: number) => string;
  /** A fraction 0–1 as text; default `81.8%`. */
  formatPercent?: (fraction: number) => string;
  /** Render the data table open (`<details open>`). */
  tableOpen?: boolean;
};

export type DailyVolumeLabels = {
  day: string;
  volume: string;
  count: string;
  total: string;
  highest: string;
  empty: string;
  showTable: string;
};

export type MethodMixLabels = {
  method: string;
  volume: string;
  count: string;
  share: string;
  empty: string;
  showTable: string;
};

export type ConversionLabels = {
  stage: string;
  checkouts: string;
  rate: string;
  created: string;
  paid: string;
  /** Summary sentence: `{paid} of {created} checkouts paid ({rate})`. */
  summary: (paid: string, created: string, rate: string) => string;
  empty: string;
  showTable: string;
};

const DAILY_LABELS: DailyVolumeLabels = {
  day: 'Day',
  volume: 'Volume',
  count: 'Payments',
  total: 'Total',
  highest: 'Highest day',
  empty: 'No payments in this period.',
  showTable: 'Show the data as a table',
};

const MIX_LABELS: MethodMixLabels = {
  method: 'Payment method',
  volume: 'Volume',
  count: 'Payments',
  share: 'Share of volume',
  empty: 'No payments in this period.',
  showTable: 'Show the data as a table',
};

const CONVERSION_LABELS: ConversionLabels = {
  stage: 'Stage',
  checkouts: 'Checkouts',
  rate: 'Share of created',
  created: 'Created',
  paid: 'Paid',
  summary: (paid, created, rate) => `${paid} of ${created} checkouts paid (${rate}).`,
  empty: 'No checkouts were created in this period.',
  showTable: 'Show the data as a table',
};

/** English names of the method types; pass `formatMethod` for others. */
const METHOD_NAMES: Record<PaymentMethodType, string> = {
  CARD: 'Card',
  PIX: 'PIX',
  CRYPTO_ONCHAIN: 'Crypto',
  BANK_TRANSFER: 'Bank transfer',
  CASH: 'Cash',
};

const defaultPercent = (fraction: number): string => `${(Math.round(fraction * 1000) / 10).toFixed(1)}%`;

/** An id made only of safe characters, so it works in `id` and in `aria-labelledby` lists. */
function safeId(id: string | undefined, fallback: string): string {
  const cleaned = (id ?? fallback).replace(/[^A-Za-z0-9_-]/g, '-');
  return /^[A-Za-z]/.test(cleaned) ? cleaned : `chart-${cleaned}`;
}

/** A coordinate for an attribute: at most two decimals, no exponent. */
const n2 = (v: number): string => String(Math.round(v * 100) / 100);

/**
 * `value / max` of `units`, computed on bigints so amounts beyond 2^53 keep their proportions.
 * A positive value never rounds to nothing: it gets at least `minimum`.
 */
function scaled(value: bigint, max: bigint, units: number, minimum = 0): number {
  if (max <= 0n || value <= 0n) {
    return 0;
  }
  const exact = Number((value * BigInt(Math.round(units * 100))) / max) / 100;
  return Math.min(units, Math.max(minimum, exact));
}

/** A share 0–1 of `part` in `whole`, through bigints (for display only). */
function share(part: bigint, whole: bigint): number {
  return whole <= 0n ? 0 : Number((part * 1_000_000n) / whole) / 1_000_000;
}

const methodClass = (type: string): string => `chart-bar--${type.toLowerCase().replace(/_/g, '-')}`;

function emptyFigure(kind: string, id: string, title: string, message: string): SafeHtml {
  return html`<figure class="chart chart--${kind} chart--empty" id="${id}" data-test="chart-${kind}">
<figcaption class="chart-title">${title}</figcaption>
<p class="chart-empty">${message}</p>
</figure>`;
}

function dataTable(
  title: string,
  showTable: string,
  open: boolean | undefined,
  head: readonly string[],
  rows: readonly (readonly string[])[],
): SafeHtml {
  return html`<details class="chart-data"${open ? html` open` : null}>
<summary>${showTable}</summary>
<table class="chart-table">
<caption>${title}</caption>
<thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>
${rows.map(
  ([first, ...rest]) =>
    html`<tr><th scope="row">${first}</th>${rest.map((cell) => html`<td class="chart-num">${cell}</td>`)}</tr>
`,
)}</tbody>
</table>
</details>`;
}

function svgOpen(id: string, height: number, title: string, desc: string): SafeHtml {
  return html`<svg class="chart-svg" xmlns="http://www.w3.org/2000/svg" width="100%" height="${height}" role="img" aria-labelledby="${id}-title ${id}-desc" focusable="false">
<title id="${id}-title">${title}</title>
<desc id="${id}-desc">${desc}</desc>`;
}

// ---- daily volume --------------------------------------------------------------------------------

const PLOT_WIDTH = 1000;
const DAILY_HEIGHT = 220;
const DAILY_PLOT_TOP = 20;
const DAILY_PLOT_HEIGHT = 176;
/** The widest a bar gets, in plot units (of 1000), so one day is not one slab. */
const MAX_BAR = 48;

/**
 * Paid volume per day as vertical bars (one per point, in order), with the highest day's amount
 * above and the first and last days below; the table lists every day with volume and count.
 */
export function dailyVolumeChart(
  series: readonly DailyPoint[],
  options: ChartOptions & {
    formatMoney: (minor: bigint) => string;
    formatDay: (dayStartMs: number) => string;
    labels?: Partial<DailyVolumeLabels>;
  },
): SafeHtml {
  const labels = { ...DAILY_LABELS, ...options.labels };
  const id = safeId(options.id, 'chart-daily-volume');
  const formatNumber = options.formatNumber ?? String;
  let total = 0n;
  let count = 0;
  let best: DailyPoint | undefined;
  for (const p of series) {
    total += p.volumeMinor;
    count += p.count;
    if (!best || p.volumeMinor > best.volumeMinor) {
      best = p;
    }
  }
  // Paid orders always have a positive amount (the overview leaves out amount 0), so no volume is no payment.
  if (!best || total <= 0n) {
    return emptyFigure('daily-volume', id, options.title, labels.empty);
  }
  const max = best.volumeMinor;
  const desc =
    options.description ??
    `${labels.total}: ${options.formatMoney(total)}; ${labels.count}: ${formatNumber(count)}. ` +
      `${labels.highest}: ${options.formatDay(best.dayStartMs)}, ${options.formatMoney(max)}.`;
  const slot = PLOT_WIDTH / series.length;
  const barWidth = Math.min(MAX_BAR, slot * 0.72);
  const first = series[0];
  const last = series[series.length - 1];
  // Each day's words once, for its bar's tooltip and its table row alike.
  const text = series.map((p) => [
    options.formatDay(p.dayStartMs),
    options.formatMoney(p.volumeMinor),
    formatNumber(p.count),
  ]);
  const bars = series.map((p, i) => {
    const h = scaled(p.volumeMinor, max, DAILY_PLOT_HEIGHT, 2);
    const [day, volume, payments] = text[i] as string[];
    const tip = `${day}: ${volume} (${payments})`;
    return html`<rect class="chart-bar" x="${n2(i * slot + (slot - barWidth) / 2)}" y="${n2(DAILY_PLOT_HEIGHT - h)}" width="${n2(barWidth)}" height="${n2(h)}" fill="currentColor"><title>${tip}</title></rect>
`;
  });
  const dayLabels =
    first && last && series.length > 1
      ? html`<text class="chart-label chart-label--start" x="0" y="${DAILY_HEIGHT - 6}" font-size="12" fill="currentColor">${options.formatDay(first.dayStartMs)}</text>
<text class="chart-label chart-label--end" x="100%" y="${DAILY_HEIGHT - 6}" font-size="12" fill="currentColor" text-anchor="end">${options.formatDay(last.dayStartMs)}</text>`
      : html`<text class="chart-label chart-label--start" x="50%" y="${DAILY_HEIGHT - 6}" font-size="12" fill="currentColor" text-anchor="middle">${first ? options.formatDay(first.dayStartMs) : ''}</text>`;
  return html`<figure class="chart chart--daily-volume" id="${id}" data-test="chart-daily-volume">
<figcaption class="chart-title">${options.title}</figcaption>
${svgOpen(id, DAILY_HEIGHT, options.title, desc)}
<text class="chart-label chart-label--max" x="0" y="13" font-size="12" fill="currentColor">${options.formatMoney(max)}</text>
<svg class="chart-plot" x="0" y="${DAILY_PLOT_TOP}" width="100%" height="${DAILY_PLOT_HEIGHT}" viewBox="0 0 ${PLOT_WIDTH} ${DAILY_PLOT_HEIGHT}" preserveAspectRatio="none">
<line class="chart-grid" x1="0" y1="0" x2="${PLOT_WIDTH}" y2="0" stroke="currentColor" stroke-opacity="0.2" vector-effect="non-scaling-stroke"/>
<line class="chart-grid" x1="0" y1="${DAILY_PLOT_HEIGHT / 2}" x2="${PLOT_WIDTH}" y2="${DAILY_PLOT_HEIGHT / 2}" stroke="currentColor" stroke-opacity="0.2" vector-effect="non-scaling-stroke"/>
${bars}<line class="chart-axis" x1="0" y1="${DAILY_PLOT_HEIGHT}" x2="${PLOT_WIDTH}" y2="${DAILY_PLOT_HEIGHT}" stroke="currentColor" stroke-opacity="0.6" vector-effect="non-scaling-stroke"/>
</svg>
${dayLabels}
</svg>
${dataTable(options.title, labels.showTable, options.tableOpen, [labels.day, labels.volume, labels.count], text)}
</figure>`;
}

// ---- horizontal bars -------------------------------------------------------------------------------

const ROW_PITCH = 44;
const BAR_TOP = 22;
const BAR_HEIGHT = 14;

type HorizontalRow = { label: string; value: string; fraction: number; barClass: string; tip: string };

/** Rows of label (left), value (right) and a bar under them whose length is `fraction` of the width. */
function horizontalBars(rows: readonly HorizontalRow[]): SafeHtml[] {
  return rows.map((row, i) => {
    const top = i * ROW_PITCH;
    const length = row.fraction > 0 ? Math.max(2, Math.min(PLOT_WIDTH, row.fraction * PLOT_WIDTH)) : 0;
    return html`<text class="chart-label" x="0" y="${top + 15}" font-size="13" fill="currentColor">${row.label}</text>
<text class="chart-label chart-label--value" x="100%" y="${top + 15}" font-size="13" fill="currentColor" text-anchor="end">${row.value}</text>
<svg class="chart-plot" x="0" y="${top + BAR_TOP}" width="100%" height="${BAR_HEIGHT}" viewBox="0 0 ${PLOT_WIDTH} ${BAR_HEIGHT}" preserveAspectRatio="none">
<rect class="chart-track" x="0" y="0" width="${PLOT_WIDTH}" height="${BAR_HEIGHT}" fill="currentColor" fill-opacity="0.12"/>
<rect class="chart-bar ${row.barClass}" x="0" y="0" width="${n2(length)}" height="${BAR_HEIGHT}" fill="currentColor"><title>${row.tip}</title></rect>
</svg>
`;
  });
}

/**
 * Each method type's share of the paid volume as horizontal bars (in the order given: the
 * overview sorts by volume), with its amount and share; the table adds the counts.
 */
export function methodMixChart(
  mix: readonly MethodMixEntry[],
  options: ChartOptions & {
    formatMoney: (minor: bigint) => string;
    /** A method type's name; default English (`Card`, `Bank transfer`…). */
    formatMethod?: (type: PaymentMethodType) => string;
    labels?: Partial<MethodMixLabels>;
  },
): SafeHtml {
  const labels = { ...MIX_LABELS, ...options.labels };
  const id = safeId(options.id, 'chart-method-mix');
  const formatNumber = options.formatNumber ?? String;
  const percent = options.formatPercent ?? defaultPercent;
  const name = options.formatMethod ?? ((type: PaymentMethodType) => METHOD_NAMES[type] ?? type);
  const total = mix.reduce((sum, e) => sum + (e.volumeMinor > 0n ? e.volumeMinor : 0n), 0n);
  if (total <= 0n) {
    return emptyFigure('method-mix', id, options.title, labels.empty);
  }
  const rows = mix.map((e) => {
    const fraction = share(e.volumeMinor, total);
    const value = `${options.formatMoney(e.volumeMinor)} (${percent(fraction)})`;
    return {
      label: name(e.type),
      value,
      fraction,
      barClass: methodClass(e.type),
      tip: `${name(e.type)}: ${value}, ${labels.count}: ${formatNumber(e.count)}`,
      count: e.count,
      volume: e.volumeMinor,
    };
  });
  const desc = options.description ?? rows.map((r) => `${r.label}: ${r.value}.`).join(' ');
  return html`<figure class="chart chart--method-mix" id="${id}" data-test="chart-method-mix">
<figcaption class="chart-title">${options.title}</figcaption>
${svgOpen(id, rows.length * ROW_PITCH, options.title, desc)}
${horizontalBars(rows)}</svg>
${dataTable(
  options.title,
  labels.showTable,
  options.tableOpen,
  [labels.method, labels.count, labels.volume, labels.share],
  rows.map((r) => [r.label, formatNumber(r.count), options.formatMoney(r.volume), percent(r.fraction)]),
)}
</figure>`;
}

/** Checkouts created in the period against those of them paid, as two horizontal bars. */
export function conversionChart(
  conversion: Pick<ConversionFigures, 'created' | 'paid'>,
  options: ChartOptions & { labels?: Partial<ConversionLabels> },
): SafeHtml {
  const labels = { ...CONVERSION_LABELS, ...options.labels };
  const id = safeId(options.id, 'chart-conversion');
  const formatNumber = options.formatNumber ?? String;
  const percent = options.formatPercent ?? defaultPercent;
  const created = Math.max(0, conversion.created);
  const paid = Math.min(created, Math.max(0, conversion.paid));
  if (created === 0) {
    return emptyFigure('conversion', id, options.title, labels.empty);
  }
  const rate = share(BigInt(paid), BigInt(created));
  const desc = options.description ?? labels.summary(formatNumber(paid), formatNumber(created), percent(rate));
  const rows: HorizontalRow[] = [
    {
      label: labels.created,
      value: formatNumber(created),
      fraction: 1,
      barClass: 'chart-bar--created',
      tip: `${labels.created}: ${formatNumber(created)}`,
    },
    {
      label: labels.paid,
      value: `${formatNumber(paid)} (${percent(rate)})`,
      fraction: rate,
      barClass: 'chart-bar--paid',
      tip: `${labels.paid}: ${formatNumber(paid)} (${percent(rate)})`,
    },
  ];
  return html`<figure class="chart chart--conversion" id="${id}" data-test="chart-conversion">
<figcaption class="chart-title">${options.title}</figcaption>
${svgOpen(id, rows.length * ROW_PITCH, options.title, desc)}
${horizontalBars(rows)}</svg>
${dataTable(
  options.title,
  labels.showTable,
  options.tableOpen,
  [labels.stage, labels.checkouts, labels.rate],
  [
    [labels.created, formatNumber(created), percent(1)],
    [labels.paid, formatNumber(paid), percent(rate)],
  ],
)}
</figure>`;
}
