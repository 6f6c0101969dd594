import { AsyncLocalStorage } from 'node:async_hooks';
import type { CurrencyTable } from '../../domain/currencies/currency.ts';
import type { Locale, PageLanguage } from '../kit/locale.ts';
import { formatMoney as formatPayerMoney } from '../kit/money.ts';
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
  /** The reader's language and region, for money. */
  language: PageLanguage;
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

const NO_REGION = { region: null };
const en: DashboardMessages = {
  t: fill,
  htmlLang: 'en',
  numberLocale: 'en-US',
  language: { locale: 'en', ...NO_REGION },
};
const es: DashboardMessages = {
  t: translator('es'),
  htmlLang: 'es',
  numberLocale: 'es-ES',
  language: { locale: 'es', ...NO_REGION },
};
const pt: DashboardMessages = {
  t: translator('pt'),
  htmlLang: 'pt-BR',
  numberLocale: 'pt-BR',
  language: { locale: 'pt', ...NO_REGION },
};

const ALL: Record<Locale, DashboardMessages> = { en, es, pt };

/** The messages of a language; with the reader's region when they named one (it decides how money reads). */
export function dashboardMessages(language: Locale | PageLanguage): DashboardMessages {
  if (typeof language === 'string') {
    return ALL[language];
  }
  const messages = ALL[language.locale];
  return language.region === null ? messages : { ...messages, language };
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
 * `1690n` → `$16.90` / `US$ 16,90` / `R$ 16,90` in the reader's language and region (the
 * currency's home region when the header names none), exactly (no float): the payer pages'
 * formatter (web/kit/money.ts), so a merchant and their payers read an amount alike.
 */
export function formatMoney(
  amountMinor: bigint,
  currency: string,
  currencies: CurrencyTable,
  m: DashboardMessages,
): string {
  return formatPayerMoney(amountMinor, currency, currencies, m.language);
}

/** Times in UTC on the server; the page's script rewrites them into the reader's zone. */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
