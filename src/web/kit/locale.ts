/**
 * The languages every page can speak (English, Spanish, Portuguese) and the choice of one from
 * a request's Accept-Language header.
 */

import type { Locale, PageLanguage } from '../../domain/shared/language.ts';
import { LOCALES } from '../../domain/shared/language.ts';

export type { Locale, PageLanguage } from '../../domain/shared/language.ts';

/**
 * Picks the best supported language from an Accept-Language header by quality value, in the
 * order the client listed them on ties (`pt-BR,pt;q=0.9,en;q=0.8` → pt). Default: English.
 */
export function negotiateLocale(header: string | undefined): Locale {
  return negotiateLanguage(header).locale;
}

/**
 * Like negotiateLocale, with the region of the chosen tag when it has one (`pt-BR` → BR, `es-419`
 * → none: a region for money must be a country). With `only`, the language is already chosen
 * (the reader picked it on the page) and the header is read for that language's region alone.
 */
export function negotiateLanguage(header: string | undefined, only?: Locale): PageLanguage {
  const fallback: PageLanguage = { locale: only ?? 'en', region: null };
  if (!header) {
    return fallback;
  }
  type Candidate = { locale: Locale; region: string | null; q: number };
  // Declared through `as` so the checker does not narrow it to its first value inside the loop.
  let best = null as Candidate | null;
  for (const part of header.slice(0, 512).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const [primary = '', ...subtags] = tag.trim().toLowerCase().split('-');
    const locale = LOCALES.find((l) => l === primary && (only === undefined || l === only));
    if (!locale) {
      continue;
    }
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p);
      if (m) {
        q = Number(m[1]);
      }
    }
    const region = subtags.find((s) => /^[a-z]{2}$/.test(s))?.toUpperCase() ?? null;
    if (q <= 0) {
      continue;
    }
    const current = best;
    if (current === null || q > current.q) {
      best = { locale, region, q };
    } else if (current.locale === locale && current.region === null && q === current.q) {
      // `pt, pt-BR`: the same language, now with its region.
      best = { locale, region, q };
    }
  }
  return best ? { locale: best.locale, region: best.region } : fallback;
}
