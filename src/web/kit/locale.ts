/**
 * The languages every page can speak (English, Spanish, Portuguese) and the choice of one from
 * a request's Accept-Language header.
 */

export type Locale = 'en' | 'es' | 'pt';

/** A page's language and, when the reader named one, their region (it decides how money is written). */
export type PageLanguage = { locale: Locale; region: string | null };

const SUPPORTED: readonly Locale[] = ['en', 'es', 'pt'];

/**
 * Picks the best supported language from an Accept-Language header by quality value, in the
 * order the client listed them on ties (`pt-BR,pt;q=0.9,en;q=0.8` → pt). Default: English.
 */
export function negotiateLocale(header: string | undefined): Locale {
  return negotiateLanguage(header).locale;
}

/**
 * Like negotiateLocale, with the region of the chosen tag when it has one (`pt-BR` → BR, `es-419`
 * → none: a region for money must be a country).
 */
export function negotiateLanguage(header: string | undefined): PageLanguage {
  if (!header) {
    return { locale: 'en', region: null };
  }
  type Candidate = { locale: Locale; region: string | null; q: number };
  // Declared through `as` so the checker does not narrow it to its first value inside the loop.
  let best = null as Candidate | null;
  for (const part of header.slice(0, 512).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const [primary = '', ...subtags] = tag.trim().toLowerCase().split('-');
    const locale = SUPPORTED.find((l) => l === primary);
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
  return best ? { locale: best.locale, region: best.region } : { locale: 'en', region: null };
}
