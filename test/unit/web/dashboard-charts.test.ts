import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DailyPoint, MethodMixEntry } from '../../../src/domain/dashboard/stats.ts';
import { formatMinor } from '../../../src/domain/shared/money.ts';
import { conversionChart, dailyVolumeChart, methodMixChart } from '../../../src/web/dashboard/charts.ts';

const DAY = 86_400_000;
const START = Date.UTC(2025, 2, 10);
const HOSTILE = `<script>alert("x")</script>' onmouseover='x`;

const money = (minor: bigint) => `${formatMinor(minor, 2)} USD`;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function points(volumes: bigint[]): DailyPoint[] {
  return volumes.map((v, i) => ({ dayStartMs: START + i * DAY, volumeMinor: v, count: v > 0n ? 1 : 0 }));
}

/** Element names in order of opening, and a check that every element is closed in order. */
function assertBalanced(markup: string): void {
  const voids = new Set(['br', 'img', 'input', 'meta', 'link', 'hr']);
  const stack: string[] = [];
  for (const m of markup.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*?(\/?)>/g)) {
    const [, closing, name = '', selfClosing] = m;
    if (selfClosing || voids.has(name)) {
      continue;
    }
    if (closing) {
      assert.equal(stack.pop(), name, `</${name}> closes the wrong element in: ${markup}`);
    } else {
      stack.push(name);
    }
  }
  assert.deepEqual(stack, [], 'every element is closed');
}

/** What no chart may contain: scripts, inline styles, or markup smuggled in through a text. */
function assertInert(markup: string): void {
  assert.doesNotMatch(markup, /<script/i);
  assert.doesNotMatch(markup, /\sstyle=/i);
  assert.doesNotMatch(markup, /\son[a-z]+=/i, 'no event handler attribute');
  assertBalanced(markup);
}

const tableRows = (markup: string) =>
  [...markup.matchAll(/<tbody>([\s\S]*?)<\/tbody>/g)].flatMap((m) => (m[1] ?? '').match(/<tr>/g) ?? []);

describe('the daily volume chart', () => {
  test('escapes hostile text in the title, the labels and the formatted values', () => {
    const out = dailyVolumeChart(points([100n, 2_500n]), {
      title: HOSTILE,
      formatMoney: (m) => `${HOSTILE}${m}`,
      formatDay: (ms) => `"${isoDay(ms)}"<b>`,
      labels: { day: HOSTILE, showTable: HOSTILE },
    }).value;
    assertInert(out);
    assert.ok(out.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover&#61;&#39;x'), out);
    assert.ok(out.includes('&quot;2025-03-10&quot;&lt;b&gt;'));
    assert.ok(!out.includes('<b>'));
  });

  test('is an SVG image with a title and description, and a captioned table with a row per day', () => {
    const series = points([0n, 1_000n, 250n, 0n, 4_000n]);
    const out = dailyVolumeChart(series, {
      title: 'Volume',
      formatMoney: money,
      formatDay: isoDay,
      id: 'home-volume',
    }).value;
    assertInert(out);
    assert.match(out, /<svg class="chart-svg"[^>]* role="img" aria-labelledby="home-volume-title home-volume-desc"/);
    assert.match(out, /<title id="home-volume-title">Volume<\/title>/);
    assert.match(
      out,
      /<desc id="home-volume-desc">Total: 52.50 USD; Payments: 3. Highest day: 2025-03-14, 40.00 USD.<\/desc>/,
    );
    assert.match(out, /viewBox="0 0 1000 176" preserveAspectRatio="none"/);
    assert.match(out, /<caption>Volume<\/caption>/);
    assert.match(out, /<th scope="col">Day<\/th><th scope="col">Volume<\/th><th scope="col">Payments<\/th>/);
    assert.equal(tableRows(out).length, series.length);
    assert.match(
      out,
      /<tr><th scope="row">2025-03-11<\/th><td class="chart-num">10.00 USD<\/td><td class="chart-num">1<\/td><\/tr>/,
    );
    assert.equal(out.match(/<rect class="chart-bar"/g)?.length, series.length);
  });

  test('an empty series, or one without any payment, is a message instead of a chart', () => {
    for (const series of [[], points([0n, 0n, 0n])]) {
      const out = dailyVolumeChart(series, { title: 'Volume', formatMoney: money, formatDay: isoDay }).value;
      assertInert(out);
      assert.doesNotMatch(out, /<svg|<table/);
      assert.match(out, /<p class="chart-empty">No payments in this period.<\/p>/);
    }
  });

  test('a single day is one bar of bounded width with its day under it', () => {
    const out = dailyVolumeChart(points([999n]), { title: 'Volume', formatMoney: money, formatDay: isoDay }).value;
    assertInert(out);
    assert.equal(out.match(/<rect class="chart-bar"/g)?.length, 1);
    assert.match(out, /<rect class="chart-bar" x="476" y="0" width="48" height="176"/);
    assert.match(out, /text-anchor="middle">2025-03-10<\/text>/);
    assert.equal(tableRows(out).length, 1);
  });

  test('huge amounts keep their proportions and a tiny positive day stays visible', () => {
    const huge = 2n ** 80n;
    const out = dailyVolumeChart(points([huge, huge / 2n, 1n]), {
      title: 'Volume',
      formatMoney: money,
      formatDay: isoDay,
    }).value;
    const heights = [...out.matchAll(/<rect class="chart-bar"[^>]* height="([\d.]+)"/g)].map((m) => Number(m[1]));
    assert.deepEqual(heights, [176, 88, 2]);
    assert.ok(out.includes(formatMinor(huge, 2)), 'the exact amount is in the table');
  });
});

describe('the payment method mix chart', () => {
  const mix: MethodMixEntry[] = [
    { type: 'CARD', count: 7, volumeMinor: 16_699n },
    { type: 'BANK_TRANSFER', count: 2, volumeMinor: 3_000n },
    { type: 'CRYPTO_ONCHAIN', count: 1, volumeMinor: 3_000n },
  ];

  test('shows each method with its amount and share, and a table row per method', () => {
    const out = methodMixChart(mix, { title: 'Methods', formatMoney: money }).value;
    assertInert(out);
    assert.match(out, /role="img"/);
    assert.match(
      out,
      /<desc id="chart-method-mix-desc">Card: 166.99 USD \(73.6%\). Bank transfer: 30.00 USD \(13.2%\)/,
    );
    assert.match(out, /class="chart-bar chart-bar--card" x="0" y="0" width="735.67"/);
    assert.match(out, /class="chart-bar chart-bar--crypto-onchain"/);
    assert.equal(tableRows(out).length, mix.length);
    assert.match(
      out,
      /<tr><th scope="row">Card<\/th><td class="chart-num">7<\/td><td class="chart-num">166.99 USD<\/td><td class="chart-num">73.6%<\/td><\/tr>/,
    );
  });

  test('escapes hostile method names and labels', () => {
    const out = methodMixChart(mix, {
      title: HOSTILE,
      formatMoney: money,
      formatMethod: (type) => `${type}${HOSTILE}`,
      labels: { method: HOSTILE },
      id: '"><script>',
    }).value;
    assertInert(out);
    assert.match(out, /id="chart----script-"/, 'the id is reduced to safe characters');
    assert.ok(out.includes('CARD&lt;script&gt;'));
  });

  test('no payments is a message', () => {
    const out = methodMixChart([], { title: 'Methods', formatMoney: money }).value;
    assert.doesNotMatch(out, /<svg/);
    assert.match(out, /chart-empty/);
  });
});

describe('the conversion chart', () => {
  test('compares checkouts created with those paid, in bars, words and a table', () => {
    const out = conversionChart({ created: 11, paid: 9 }, { title: 'Conversion' }).value;
    assertInert(out);
    assert.match(out, /<desc id="chart-conversion-desc">9 of 11 checkouts paid \(81.8%\).<\/desc>/);
    assert.match(out, /class="chart-bar chart-bar--created" x="0" y="0" width="1000"/);
    assert.match(out, /class="chart-bar chart-bar--paid" x="0" y="0" width="818.18"/);
    assert.equal(tableRows(out).length, 2);
  });

  test('uses the translations and formats it is given, escaped', () => {
    const out = conversionChart(
      { created: 1200, paid: 3 },
      {
        title: 'Conversión',
        formatNumber: (n) => new Intl.NumberFormat('es').format(n),
        formatPercent: (f) => `${(f * 100).toFixed(2)} %`,
        labels: { created: 'Creados', paid: HOSTILE, summary: (p, c, r) => `${p} de ${c} pagados (${r})` },
      },
    ).value;
    assertInert(out);
    assert.match(out, /<desc id="chart-conversion-desc">3 de 1200 pagados \(0.25 %\)<\/desc>/);
    assert.ok(out.includes('&lt;script&gt;'));
  });

  test('no checkout created is a message, not a division by zero', () => {
    const out = conversionChart({ created: 0, paid: 0 }, { title: 'Conversion' }).value;
    assert.doesNotMatch(out, /<svg|NaN|Infinity/);
    assert.match(out, /No checkouts were created in this period./);
  });
});
