import { AsyncLocalStorage } from 'node:async_hooks';
import type { Locale } from '../kit/locale.ts';
import type { DashboardText } from './words/index.ts';
import { AREAS } from './words/index.ts';

/** A page's text in the reader's language: the English text, with `{name}` placeholders filled in. */
export type Translate = (english: DashboardText, values?: Record<string, string | number>) => string;

/**
 * The dashboard's words in English, Spanish and Portuguese (from Accept-Language, as the
 * checkout). Like the checkout's field labels, the names people and tests navigate by — the
 * sign-in fields and button, the navigation, "Refund" — are the same English words in every
 * language; the rest of each page is translated.
 */
export type DashboardMessages = {
  /** Page text: `m.t('Gross volume')`; the dictionaries are in `words/`. */
  t: Translate;
  htmlLang: string;
  numberLocale: string;
};

function fill(text: string, values: Record<string, string | number> | undefined): string {
  if (!values) {
    return text;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

function translator(lang: 'es' | 'pt'): Translate {
  const table = new Map<string, string>();
  for (const words of Object.values(AREAS)) {
    for (const [english, translated] of Object.entries(words)) {
      table.set(english, translated[lang]);
    }
  }
  return (english, values) => fill(table.get(english) ?? english, values);
}

const en: DashboardMessages = { t: fill, htmlLang: 'en', numberLocale: 'en-US' };
const es: DashboardMessages = { t: translator('es'), htmlLang: 'es', numberLocale: 'es-ES' };
const pt: DashboardMessages = { t: translator('pt'), htmlLang: 'pt-BR', numberLocale: 'pt-BR' };

const ALL: Record<Locale, DashboardMessages> = { en, es, pt };

export function dashboardMessages(locale: Locale): DashboardMessages {
  return ALL[locale];
}

const pageLocale = new AsyncLocalStorage<Locale>();

/**
 * Runs `next` (the rest of a dashboard request: its hooks, its handler and everything they
 * await) in the reader's language, so a view deep in the page can call {@link t} without every
 * function in between passing the language along.
 */
export function withPageLocale(locale: Locale, next: () => void): void {
  pageLocale.run(locale, next);
}

/** Page text in the language of the request being answered; English outside a request. */
export const t: Translate = (english, values) => ALL[pageLocale.getStore() ?? 'en'].t(english, values);

/**
 * Building an Intl formatter costs tens of microseconds, and a page formats hundreds of amounts
 * (the home page's 90-day chart alone, several per day): one formatter per language, currency
 * and number of decimals, kept for the life of the process (a bounded map).
 */
const moneyFormats = new Map<string, (decimalText: string) => string>();

function moneyFormat(locale: string, currency: string, decimals: number): (decimalText: string) => string {
  const key = `${locale} ${currency} ${decimals}`;
  const known = moneyFormats.get(key);
  if (known) {
    return known;
  }
  let format: (decimalText: string) => string;
  try {
    const f = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    format = (text) => f.format(text as unknown as number);
  } catch {
    // Not an ISO 4217 code Intl knows (USDT, USDC): the digits, then the code.
    const f = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    format = (text) => `${f.format(text as unknown as number)} ${currency}`;
  }
  if (moneyFormats.size < 1_000) {
    moneyFormats.set(key, format);
  }
  return format;
}

/** `1690n` → `$16.90` / `US$ 16,90` / `16,90 US$` in the reader's language, exactly (no float). */
export function formatMoney(amountMinor: bigint, currency: string, decimals: number, m: DashboardMessages): string {
  const negative = amountMinor < 0n;
  const abs = negative ? -amountMinor : amountMinor;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(decimals, '0');
  // Intl formats the digits and the symbol; the value goes in as a decimal string, so no float rounding.
  const text = `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
  return moneyFormat(m.numberLocale, currency, decimals)(text);
}

/** Times in UTC on the server; the page's script rewrites them into the reader's zone. */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
