import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const CSRF_COOKIE = 'cobro_csrf';
export const CSRF_FIELD = 'csrf_token';

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** A fresh random value for a script nonce or a browser's CSRF cookie (256 bits). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The Content-Security-Policy of every checkout response. Scripts run only with this
 * response's nonce, styles only from our own stylesheet, nothing may frame the page.
 *
 * `formTargets` are origins a form on the page may end up at: Chromium applies `form-action`
 * to every redirect that follows a form submission, so the 303 to the merchant's own
 * success or error page (taken from the preference, never from the request) must be allowed
 * there or the payer would be stuck on a blocked navigation.
 */
export function contentSecurityPolicy(
  nonce: string,
  formTargets: readonly string[],
  allow: readonly ThirdParty[] = [],
): string {
  const stripe = allow.includes('stripe');
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'${stripe ? ` ${STRIPE_JS.script.join(' ')}` : ''}`,
    "style-src 'self'",
    `img-src 'self' data:${stripe ? ` ${STRIPE_JS.img.join(' ')}` : ''}`,
    // The status poller fetches JSON from this same origin; nothing else is reachable.
    `connect-src 'self'${stripe ? ` ${STRIPE_JS.connect.join(' ')}` : ''}`,
    ...(stripe ? [`frame-src ${STRIPE_JS.frame.join(' ')}`] : []),
    `form-action ${["'self'", ...formTargets].join(' ')}`,
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Third parties a page may need beside our own origin: the Stripe card step of a checkout, and a card renewal's confirmation page. */
export type ThirdParty = 'stripe';

/**
 * What Stripe.js and its Payment Element need, as Stripe's integration security guide lists it
 * (docs.stripe.com/security/guide#content-security-policy), the card fields alone: the script,
 * the frames of the fields and of 3-D Secure (hooks.stripe.com), and Stripe's API. Not the
 * address autocomplete's Google Maps origins: Cobro mounts no Address Element.
 */
export const STRIPE_JS = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
  img: ['https://*.stripe.com'],
} as const;

/** Stripe.js, loaded from Stripe as its terms require (never bundled). */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/** Origins of the merchant's stored redirect URLs, safe to put in a CSP header (scheme://host[:port] only). */
export function redirectOrigins(urls: readonly (string | null)[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    if (!url) {
      continue;
    }
    try {
      const parsed = new URL(url);
      // The stored URLs are validated on creation; this re-check keeps header syntax out of reach anyway.
      if ((parsed.protocol === 'https:' || parsed.protocol === 'http:') && /^[a-z0-9.:[\]-]+$/i.test(parsed.host)) {
        origins.add(parsed.origin);
      }
    } catch {
      // Not a URL: it cannot be a redirect target either, so it needs no form-action entry.
    }
  }
  return [...origins];
}

/**
 * Gives every response of a page scope the security headers and its own script nonce, errors
 * and 404s included, and returns how a page finds its request's nonce (pages that re-apply the
 * headers, e.g. to widen form-action, use the same one).
 */
export function registerPageNonces(scope: FastifyInstance, https: boolean): (req: FastifyRequest) => string {
  const nonces = new WeakMap<FastifyRequest, string>();
  const nonceOf = (req: FastifyRequest): string => {
    let nonce = nonces.get(req);
    if (!nonce) {
      nonce = randomToken();
      nonces.set(req, nonce);
    }
    return nonce;
  };
  scope.addHook('onRequest', async (req, reply) => {
    applySecurityHeaders(reply, { nonce: nonceOf(req), https });
  });
  return nonceOf;
}

/** Headers every checkout response carries (pages, JSON and redirects alike). */
export function applySecurityHeaders(
  reply: FastifyReply,
  options: { nonce: string; formTargets?: readonly string[]; https: boolean; allow?: readonly ThirdParty[] },
): void {
  reply.header(
    'content-security-policy',
    contentSecurityPolicy(options.nonce, options.formTargets ?? [], options.allow ?? []),
  );
  reply.header('x-content-type-options', 'nosniff');
  // Not no-referrer: with it Chromium sends `Origin: null` on same-origin form posts, which
  // would defeat the Origin check below. strict-origin still never leaks a checkout URL (the
  // payer's capability) to the merchant's or anyone else's site: only our origin goes out.
  reply.header('referrer-policy', 'strict-origin');
  reply.header('x-frame-options', 'DENY');
  // Checkout pages carry card fields or payment data: never kept by the browser or a proxy.
  reply.header('cache-control', 'no-store');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (options.https) {
    reply.header('strict-transport-security', 'max-age=31536000');
  }
}

/** One cookie's value from a Cookie header, or null (every page plugin reads its cookies with this). */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) {
    return null;
  }
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) {
      return part.slice(at + 1).trim();
    }
  }
  return null;
}

/**
 * CSRF protection for the checkout's form posts (double submit, signed): each browser gets a
 * random HttpOnly cookie; each form carries HMAC(key, preference id, cookie). A page from
 * another site can neither read the cookie nor compute the token, and a token taken from one
 * checkout is useless on another. The key is derived from the service's secrets key, so a
 * form stays valid across a restart and on every instance that shares SECRETS_KEY.
 */
export class CsrfGuard {
  constructor(
    /** HMAC key for the form tokens (32 bytes). */
    private readonly key: Buffer,
    /** Origin of PUBLIC_URL, e.g. `https://pay.example.com`. */
    private readonly publicOrigin: string,
    private readonly secureCookie: boolean,
    /** Where the browser sends the cookie back: the pages whose forms this guard protects. */
    private readonly cookiePath = '/checkout',
  ) {}

  /** The browser's cookie value, or null when it has none (or something that is not ours). */
  private cookieOf(req: FastifyRequest): string | null {
    const value = readCookie(req.headers.cookie, CSRF_COOKIE);
    return value !== null && COOKIE_VALUE.test(value) ? value : null;
  }

  /** The token for a form of this preference, setting the browser's cookie first when it has none. */
  tokenFor(req: FastifyRequest, reply: FastifyReply, preferenceId: string): string {
    let cookie = this.cookieOf(req);
    if (cookie === null) {
      cookie = randomToken();
      reply.header(
        'set-cookie',
        `${CSRF_COOKIE}=${cookie}; Path=${this.cookiePath}; HttpOnly; SameSite=Strict${this.secureCookie ? '; Secure' : ''}`,
      );
    }
    return this.sign(preferenceId, cookie);
  }

  private sign(preferenceId: string, cookie: string): string {
    return createHmac('sha256', this.key).update(`checkout-csrf\0${preferenceId}\0${cookie}`).digest('base64url');
  }

  /** True when the posted token matches this browser's cookie and this preference. */
  verifyToken(req: FastifyRequest, preferenceId: string, posted: string | null): boolean {
    const cookie = this.cookieOf(req);
    if (cookie === null || posted === null) {
      return false;
    }
    const expected = Buffer.from(this.sign(preferenceId, cookie));
    const given = Buffer.from(posted);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * Origin (else Referer) must be this site: PUBLIC_URL's origin, or the host the request was
   * sent to (the same server reached by another name, e.g. 127.0.0.1 behind a proxy). `Origin:
   * null` (sandboxed frames, data: documents) is refused. A request with neither header relies
   * on the token alone: some privacy proxies strip both, and the token is the real check.
   */
  sameOrigin(req: FastifyRequest): boolean {
    const origin = req.headers.origin;
    if (typeof origin === 'string') {
      return this.isOurs(origin, req.host);
    }
    const referer = req.headers.referer;
    if (typeof referer === 'string') {
      return this.isOurs(referer, req.host);
    }
    return true;
  }

  private isOurs(value: string, requestHost: string): boolean {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return false;
    }
    return url.origin === this.publicOrigin || url.host === requestHost.toLowerCase();
  }

  /** Both checks for a form post: same origin, then the token. */
  check(req: FastifyRequest, preferenceId: string, posted: string | null): boolean {
    return this.sameOrigin(req) && this.verifyToken(req, preferenceId, posted);
  }
}
