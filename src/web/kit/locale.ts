/**
 * The languages every page can speak (English, Spanish, Portuguese) and the choice of one from
 * a request's Accept-Language header.
 */

export type Locale = 'en' | 'es' | 'pt';

const SUPPORTED: readonly Locale[] = ['en', 'es', 'pt'];

/**
 * Picks the best supported language from an Accept-Language header by quality value, in the
 * order the client listed them on ties (`pt-BR,pt;q=0.9,en;q=0.8` → pt). Default: English.
 */
export function negotiateLocale(header: string | undefined): Locale {
  if (!header) {
    return 'en';
  }
  let best: { locale: Locale; q: number } | null = null;
  for (const part of header.slice(0, 512).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0] ?? '';
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
    if (q > 0 && (best === null || q > best.q)) {
      best = { locale, q };
    }
  }
  return best?.locale ?? 'en';
}
