import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Locale, PageLanguage } from '../../domain/shared/language.ts';
import { isLocale, LOCALES } from '../../domain/shared/language.ts';
import { negotiateLanguage } from './locale.ts';
import { readCookie } from './security.ts';

/**
 * The payer's own choice of language, made with the switcher on any payer page and kept for a
 * year. Path=/ so the checkout, the subscription pages and the plan links all read the same
 * choice; a plain preference, not a credential (SameSite=Lax, sent on the payer's own navigations).
 */
export const LANGUAGE_COOKIE = 'cobro_lang';
const LANGUAGE_COOKIE_SECONDS = 365 * 24 * 60 * 60;

/** The query parameter of the switcher's links (`?lang=pt`): the only thing that sets the cookie. */
export const LANGUAGE_PARAM = 'lang';

/** Each choice named in its own language, so a reader finds theirs whatever the page speaks. */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', es: 'Español', pt: 'Português' };

/**
 * The payer's language: the choice they made on a page (the cookie), else the best match of
 * Accept-Language. The region, which decides how money is written, comes from the header when
 * it names the same language (`es-AR` keeps Argentine pesos as `$ 1.234,50` after choosing Español).
 */
export function payerLanguage(req: FastifyRequest): PageLanguage {
  const header = req.headers['accept-language'];
  const chosen = readCookie(req.headers.cookie, LANGUAGE_COOKIE);
  return isLocale(chosen) ? negotiateLanguage(header, chosen) : negotiateLanguage(header);
}

/** The query string without any `lang` parameter, every other parameter kept byte for byte. */
function withoutLanguageParam(query: string): string {
  return query
    .split('&')
    .filter((part) => part !== '' && decodeName(part) !== LANGUAGE_PARAM)
    .join('&');
}

function decodeName(part: string): string {
  const name = part.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The language named by the first `lang` parameter of a query string, when it is one we speak. */
function languageParam(query: string): Locale | null {
  for (const part of query.split('&')) {
    if (decodeName(part) === LANGUAGE_PARAM) {
      const value = part.slice(part.indexOf('=') + 1);
      return part.includes('=') && isLocale(value) ? value : null;
    }
  }
  return null;
}

/**
 * A GET with `?lang=xx` on any page of the scope remembers the choice (when it names a language
 * we speak) and answers 303 to the same address without the parameter: the address stays the
 * page's own (bookmarks, the checkout URL the merchant sent), and a reload does not set it again.
 * Plain links, so it works without JavaScript.
 */
export function registerLanguageSwitch(scope: FastifyInstance, https: boolean): void {
  scope.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return;
    }
    const at = req.url.indexOf('?');
    const query = at === -1 ? '' : req.url.slice(at + 1);
    if (at === -1 || !query.split('&').some((part) => decodeName(part) === LANGUAGE_PARAM)) {
      return;
    }
    const chosen = languageParam(query);
    if (chosen !== null) {
      reply.header(
        'set-cookie',
        `${LANGUAGE_COOKIE}=${chosen}; Path=/; Max-Age=${LANGUAGE_COOKIE_SECONDS}; HttpOnly; SameSite=Lax${https ? '; Secure' : ''}`,
      );
    }
    const path = req.url.slice(0, at);
    const rest = withoutLanguageParam(query);
    // The page's own path (never `//host`: a relative reference to another site).
    const location = `/${path.replace(/^[/\\]+/, '')}${rest ? `?${rest}` : ''}`;
    return reply.code(303).header('location', location).send();
  });
}

/** The switcher of one page: the language it speaks and, per language, the link that switches to it. */
export type LanguageSwitcher = { current: Locale; links: Readonly<Record<Locale, string>> };

/**
 * The switcher for the page answering `req`. Its links are this page's address with `lang` added
 * (other parameters, such as a subscription link's signature, kept); a page shown in answer to a
 * form post names the address to come back to instead (`base`, a path with its query).
 */
export function languageSwitcher(req: FastifyRequest, current: Locale, base?: string): LanguageSwitcher {
  const target = base ?? req.url;
  const at = target.indexOf('?');
  const path = at === -1 ? target : target.slice(0, at);
  const rest = at === -1 ? '' : withoutLanguageParam(target.slice(at + 1));
  const links = Object.fromEntries(
    LOCALES.map((locale) => [locale, `${path}?${rest ? `${rest}&` : ''}${LANGUAGE_PARAM}=${locale}`]),
  ) as Record<Locale, string>;
  return { current, links };
}
