import type { PixProfile } from '../../../domain/connectors/pix-connector.ts';

/**
 * Where a PSP departs from the API Pix specification as published (github.com/bacen/pix-api),
 * as it documents it, as data. Everything not listed here is the specification's.
 *
 * - bcb: the specification as written. The token URL defaults to `{base-url}/oauth/token`
 *   (the spec's own example is `https://pix.example.com/oauth/token`); the token request is HTTP
 *   Basic `client_id:client_secret` with the form `grant_type=client_credentials`; notifications
 *   arrive at `{webhookUrl}/pix` as `{"pix": [...]}`.
 * - efi (Efí Pay, formerly Gerencianet; dev.efipay.com.br/docs/api-pix/credenciais and
 *   dev.efipay.com.br/docs/api-pix/webhooks): the API Pix lives under `/v2` of its host and the
 *   token endpoint at the host's `/oauth/token`, asked with HTTP Basic and a JSON body
 *   `{"grant_type": "client_credentials"}`. When a webhook is registered, Efí first POSTs a test
 *   to the URL as registered (without `/pix`), then sends notifications to `{webhookUrl}/pix`.
 * - inter (Banco Inter): the API Pix lives under `/pix/v2` and the notification body is a bare
 *   JSON array of Pix, not wrapped in `{"pix": …}` (its API Pix reference,
 *   developers.inter.co/references/pix); the token endpoint is at `/oauth/v2/token`, asked with
 *   a form holding `client_id`, `client_secret`, `grant_type` and the `scope` list, no HTTP Basic
 *   (the token section of the same portal, developers.inter.co; public integration samples for
 *   Inter send the same form). Not tried against Inter's homologation environment.
 */
export type ProfileRules = {
  /** Added to a base URL given as a bare host (no path), so `--base-url https://host` works. */
  apiPath: string;
  /** The token URL when none is given: relative to the base URL (`bcb`) or to its origin. */
  tokenUrl: (base: URL) => string;
  /** How the token request carries the credentials and the grant. */
  tokenRequest: 'basic-form' | 'basic-json' | 'form-credentials';
  /** How a notification body lists the Pix received. */
  notification: 'wrapped' | 'bare-array';
};

/** The scopes Cobro needs (the specification's names): charges, Pix and refunds, the webhook. */
export const PIX_SCOPES = ['cob.write', 'cob.read', 'pix.write', 'pix.read', 'webhook.write', 'webhook.read'] as const;

export const PROFILES: Readonly<Record<PixProfile, ProfileRules>> = {
  bcb: {
    apiPath: '',
    tokenUrl: (base) => `${base.href.replace(/\/$/, '')}/oauth/token`,
    tokenRequest: 'basic-form',
    notification: 'wrapped',
  },
  efi: {
    apiPath: '/v2',
    tokenUrl: (base) => `${base.origin}/oauth/token`,
    tokenRequest: 'basic-json',
    notification: 'wrapped',
  },
  inter: {
    apiPath: '/pix/v2',
    tokenUrl: (base) => `${base.origin}/oauth/v2/token`,
    tokenRequest: 'form-credentials',
    notification: 'bare-array',
  },
};

/**
 * The API root and token URL of a connection: the base URL as given, with the profile's API path
 * when it names a bare host, and the token URL given or the profile's default. Throws a
 * RangeError naming the problem for what is not an https URL.
 */
export function resolveUrls(
  profile: PixProfile,
  baseUrl: string,
  tokenUrl: string | null,
): { baseUrl: string; tokenUrl: string } {
  const rules = PROFILES[profile];
  const base = httpsUrl(baseUrl, 'base URL');
  if (base.pathname === '/' && rules.apiPath !== '') {
    base.pathname = rules.apiPath;
  }
  const root = base.href.replace(/\/$/, '');
  const token = tokenUrl === null ? rules.tokenUrl(new URL(root)) : httpsUrl(tokenUrl, 'token URL').href;
  return { baseUrl: root, tokenUrl: token };
}

function httpsUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RangeError(`${what}: not a URL (${text})`);
  }
  if (url.protocol !== 'https:') {
    throw new RangeError(`${what}: API Pix calls use mutual TLS, so the URL must be https:// (got ${url.protocol})`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new RangeError(`${what}: must not hold credentials, a query or a fragment`);
  }
  return url;
}
