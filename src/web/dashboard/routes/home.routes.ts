import { DAY_MS } from '../../../domain/dashboard/stats.ts';
import { html } from '../../kit/html.ts';
import { conversionChart, dailyVolumeChart, methodMixChart } from '../charts.ts';
import { formatMoney, t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';

/** The ranges the home page offers: today (since 00:00 UTC) and the last 7, 30 or 90 days. */
const RANGES = { today: 0, '7d': 7, '30d': 30, '90d': 90 } as const;
type RangeKey = keyof typeof RANGES;

/** The method types' names in the reader's language (a function: the language is the request's). */
const methodNames = (): Record<string, string> => ({
  CARD: tr('Card'),
  PIX: 'PIX',
  CRYPTO_ONCHAIN: tr('Crypto'),
  BANK_TRANSFER: tr('Bank transfer'),
  CASH: tr('Cash'),
});

/**
 * Home: for a range and a currency, gross volume, payments paid, conversion, refunds, active
 * subscriptions, MRR and failed renewals, and three charts drawn on the server with a table
 * each. Every figure comes from indexed aggregate queries (stats.ts).
 */
export function homeRoutes(r: DashRouter): void {
  r.page('', showHome);
}

type HomeQuery = { Querystring: { range?: string; currency?: string } };

async function showHome({ req, ctx, services, render }: DashRequest<HomeQuery>) {
  const { mode, base } = ctx;
  const stats = services.dashboard.stats;
  const rangeKey: RangeKey = (Object.keys(RANGES) as RangeKey[]).find((k) => k === req.query.range) ?? '30d';
  // Independent reads side by side: on PostgreSQL each is a round trip.
  const [currencies, liveKeys] = await Promise.all([
    stats.currenciesWithActivity(ctx.merchantId, mode),
    mode === 'live' ? services.merchants.listKeys(ctx.merchantId, 'live') : null,
  ]);
  const asked = String(req.query.currency ?? '').toUpperCase();
  const currency = currencies.includes(asked) ? asked : currencies.includes('USD') ? 'USD' : (currencies[0] ?? 'USD');
  const now = Date.now();
  const todayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const days = RANGES[rangeKey];
  const fromMs = days === 0 ? todayStart : todayStart - (days - 1) * DAY_MS;
  const overview = await stats.overview({
    merchantId: ctx.merchantId,
    mode,
    currency,
    fromMs,
    toMs: todayStart + DAY_MS,
    bucket: 'day',
  });
  // A merchant with test keys only (the demo merchant, a new integration) has nothing live yet.
  const testOnly = liveKeys !== null && liveKeys.length === 0;
  const money = (minor: bigint) => formatMoney(minor, currency, services.currencies, ctx.m);
  // One formatter of each kind per page: building one costs more than a chart's worth of formatting.
  const numberFormat = new Intl.NumberFormat(ctx.m.numberLocale);
  const percentFormat = new Intl.NumberFormat(ctx.m.numberLocale, { style: 'percent', maximumFractionDigits: 1 });
  const dayFormat = new Intl.DateTimeFormat(ctx.m.numberLocale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const number = (n: number) => numberFormat.format(n);
  const percent = (f: number) => percentFormat.format(f);
  const day = (ms: number) => dayFormat.format(ms);
  const tiles: [string, string, string][] = [
    ['gross', tr('Gross volume'), money(overview.grossVolumeMinor)],
    ['paid', tr('Payments paid'), number(overview.paymentsPaid)],
    ['conversion', tr('Conversion'), overview.conversion.rate === null ? '—' : percent(overview.conversion.rate)],
    ['refunds', tr('Refunds'), `${number(overview.refunds.count)} · ${money(overview.refunds.amountMinor)}`],
    ['subscriptions', tr('Active subscriptions'), number(overview.subscriptions.active)],
    ['mrr', tr('Monthly recurring revenue'), money(overview.mrrMinor)],
    ['failed', tr('Failed renewals'), number(overview.failedRenewals)],
  ];
  const names = methodNames();
  const showTable = tr('Show the data as a table');
  const noPayments = tr('No payments in this period.');
  return render(
    'home',
    'Home',
    html`<h1>Home</h1>
${testOnly ? html`<p class="notice" role="status" data-test="test-only">${tr('This merchant has test keys only, so there is no live data yet.')} <a href="/dashboard/test">${ctx.m.t('View test data')}</a>.</p>` : null}
<form method="get" action="${base}" class="toolbar" aria-label="${tr('Range and currency')}">
<div class="field"><label for="range">${tr('Range')}</label><select id="range" name="range">
${(Object.keys(RANGES) as RangeKey[]).map((k) => html`<option value="${k}"${k === rangeKey ? html` selected` : null}>${k === 'today' ? tr('Today') : tr('Last {days} days', { days: RANGES[k] })}</option>`)}
</select></div>
<div class="field"><label for="currency">${tr('Currency')}</label><select id="currency" name="currency">
${(currencies.length > 0 ? currencies : [currency]).map((c) => html`<option value="${c}"${c === currency ? html` selected` : null}>${c}</option>`)}
</select></div>
<button type="submit" class="button--secondary">${tr('Show')}</button>
</form>
<ul class="tiles" data-test="figures">
${tiles.map(([key, label, value]) => html`<li class="tile" data-test="figure-${key}"><span class="label">${label}</span><span class="value">${value}</span></li>`)}
</ul>
${dailyVolumeChart(overview.series, {
  title: tr('Daily volume ({currency})', { currency }),
  formatMoney: money,
  formatDay: day,
  formatNumber: number,
  labels: {
    day: tr('Day'),
    volume: tr('Volume'),
    count: tr('Payments'),
    total: tr('Total'),
    highest: tr('Highest day'),
    empty: noPayments,
    showTable,
  },
})}
${methodMixChart(overview.methodMix, {
  title: tr('Payment methods'),
  formatMoney: money,
  formatNumber: number,
  formatMethod: (m) => names[m] ?? m,
  labels: {
    method: tr('Payment method'),
    volume: tr('Volume'),
    count: tr('Payments'),
    share: tr('Share of volume'),
    empty: noPayments,
    showTable,
  },
})}
${conversionChart(overview.conversion, {
  title: tr('Conversion: checkouts created and paid'),
  formatNumber: number,
  formatPercent: percent,
  labels: {
    stage: tr('Stage'),
    checkouts: tr('Checkouts'),
    rate: tr('Share of created'),
    created: tr('Created'),
    paid: tr('Paid'),
    summary: (paid, created, rate) => tr('{paid} of {created} checkouts paid ({rate}).', { paid, created, rate }),
    empty: tr('No checkouts were created in this period.'),
    showTable,
  },
})}`,
  );
}
