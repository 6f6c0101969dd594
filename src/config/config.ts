import { isIP } from 'node:net';

/**
 * Settings, read once from the environment at start. A bad value stops the start with a
 * message naming the variable: a payments service must not guess at its configuration.
 */
export type Config = {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string;
  bootstrap: { apiKey: string; apiSecret: string } | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  rateLimitPerSecond: number;
  authFailuresPerMinute: number;
  /**
   * The reverse proxies whose `X-Forwarded-For` is believed (addresses, CIDR ranges, or
   * `loopback`, `linklocal`, `uniquelocal`), so that every per-address limit sees the client's
   * address; false: the socket's address is the client's.
   */
  trustProxy: false | string[];
  bodyLimitBytes: number;
  idempotencyRetentionHours: number;
  /**
   * A card charge unanswered this long is treated as cut (its process died): the processor is
   * asked what became of it. Also how long a charge in progress holds its checkout.
   */
  cardRecoveryAfterMs: number;
  ratesFile: string | null;
  sqliteSynchronous: 'FULL' | 'EXTRA' | 'NORMAL';
  pgPoolSize: number;
  webhooks: {
    allowPrivateNetworks: boolean;
    /** Exact `ip:port` (or `[ipv6]:port`, `host:port`) targets allowed despite being private. */
    allowlist: string[];
    retryDelaysSeconds: number[];
    timeoutMs: number;
    maxConcurrencyPerEndpoint: number;
    secretOverlapSeconds: number;
  };
  subscriptions: {
    retryDays: number[];
    cancelWhenRetriesExhausted: boolean;
    renewalNoticeHours: number;
  };
  /** Where live mode watches blockchains (operator settings: no request can name a URL). */
  chains: {
    /** An Esplora REST API (electrs, esplora, mempool.space); null: Bitcoin is not watched in live mode. */
    bitcoinEsploraUrl: string | null;
    /** Confirmations a payment needs before its order closes, by network. */
    confirmations: Record<'bitcoin' | 'ethereum' | 'polygon' | 'base', number>;
    /**
     * EVM networks: a JSON-RPC node each (null: not watched in live mode), and overrides of the
     * chain id and token contracts (defaults: mainnet) for a testnet or a local chain.
     */
    evm: Record<
      EvmNetwork,
      { rpcUrl: string | null; chainId: number | null; tokens: Partial<Record<'USDC' | 'USDT', string>> }
    >;
    /** How often live chains are looked at (an open live order's address, a network's new blocks). */
    pollMs: number;
    /** Per call to a chain source. */
    timeoutMs: number;
  };
  /** The merchants' Stripe accounts (INTERFACE §11.1): where calls go, and how long one may take. */
  stripe: { apiUrl: string; timeoutMs: number };
  /** The merchants' PSPs through the API Pix (INTERFACE §11.2): how long one call may take. */
  pix: { timeoutMs: number };
  smtpUrl: string | null;
  mailFrom: string;
  /** 32-byte key sealing webhook secrets at rest; null: a key file beside the data is used. */
  secretsKey: Buffer | null;
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) {
    return fallback;
  }
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = text(env, name);
  if (raw === undefined) {
    return fallback;
  }
  const found = allowed.find((a) => a.toLowerCase() === raw.toLowerCase());
  if (!found) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return found;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === undefined) {
    return fallback;
  }
  if (!/^(true|false|1|0)$/i.test(raw)) {
    throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  }
  return /^(true|1)$/i.test(raw);
}

/**
 * An http(s) URL without a fragment, or null when unset; a query only where `query` allows it
 * (hosted EVM nodes put their key there). Credentials in it are kept, never logged.
 */
function httpUrl(env: Env, name: string, query: 'refused' | 'allowed' = 'refused'): string | null {
  const raw = text(env, name);
  if (raw === undefined) {
    return null;
  }
  // A URL that may carry a key in its query is not repeated in the error.
  const got = query === 'refused' ? `, got "${raw}"` : '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL${got}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hash || (url.search && query === 'refused')) {
    throw new ConfigError(
      `${name} must be an http(s) URL without ${query === 'refused' ? 'a query or fragment' : 'a fragment'}${got}`,
    );
  }
  // With a query the path is left as given: a trailing slash before it may be part of a key.
  return url.search ? url.toString() : url.toString().replace(/\/+$/, '');
}

/** Host names that are this machine: the only ones a plain-http STRIPE_API_URL may name. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/**
 * STRIPE_API_URL: scheme, host and port only (the package takes nothing else), https; http only
 * to this machine (a local Stripe-compatible server), where no card data or key crosses a network.
 */
function stripeApiUrl(env: Env): string {
  const url = httpUrl(env, 'STRIPE_API_URL') ?? 'https://api.stripe.com';
  const parsed = new URL(url);
  if (parsed.pathname !== '/' || parsed.username !== '' || parsed.password !== '') {
    throw new ConfigError(
      `STRIPE_API_URL must be a scheme, host and port only (e.g. https://api.stripe.com), got "${url}"`,
    );
  }
  if (parsed.protocol === 'http:' && !isLoopback(parsed.hostname)) {
    throw new ConfigError(
      `STRIPE_API_URL may use http:// only for this machine (127.0.0.1, ::1, localhost), got "${url}"`,
    );
  }
  return url;
}

export type EvmNetwork = 'ethereum' | 'polygon' | 'base';

/**
 * EVM_RPC_URL_<NETWORK> (a query is allowed: hosted nodes put their key there, so the URL is
 * never logged), EVM_CHAIN_ID_<NETWORK>, EVM_TOKEN_<NETWORK>_<USDC|USDT>.
 */
function evmNetwork(env: Env, suffix: string): Config['chains']['evm'][EvmNetwork] {
  const rpcUrl = httpUrl(env, `EVM_RPC_URL_${suffix}`, 'allowed');
  const tokens: Partial<Record<'USDC' | 'USDT', string>> = {};
  for (const token of ['USDC', 'USDT'] as const) {
    const key = `EVM_TOKEN_${suffix}_${token}`;
    const address = text(env, key);
    if (address !== undefined) {
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
        throw new ConfigError(`${key} must be a contract address (0x and 40 hex digits), got "${address}"`);
      }
      tokens[token] = address.toLowerCase();
    }
  }
  const chainId =
    text(env, `EVM_CHAIN_ID_${suffix}`) === undefined ? null : integer(env, `EVM_CHAIN_ID_${suffix}`, 1, 1, 2 ** 32);
  return { rpcUrl, chainId, tokens };
}

function list(env: Env, name: string): string[] {
  const raw = text(env, name);
  return raw === undefined
    ? []
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
}

/** proxy-addr's names for the loopback, link-local and private ranges. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'] as const;

/**
 * TRUST_PROXY: the proxies' addresses. Neither `true` nor a hop count is taken: both would
 * believe an `X-Forwarded-For` sent by a client that reaches Cobro without the proxy, and let it
 * choose the address every limit counts (Fastify 5 ignores a hop count for the same reason).
 */
function trustedProxies(env: Env): false | string[] {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === undefined || /^(false|off|none)$/i.test(raw)) {
    return false;
  }
  const refusal = (why: string) =>
    new ConfigError(
      `TRUST_PROXY must list the reverse proxies' addresses or CIDR ranges (e.g. 127.0.0.1 or 10.0.0.0/8,::1), or loopback, linklocal, uniquelocal; ${why}`,
    );
  if (/^(true|on|all|\*)$/i.test(raw) || /^\d+$/.test(raw)) {
    throw refusal(
      `"${raw}" would believe the X-Forwarded-For of any client that reaches Cobro directly (see docs/operations.md)`,
    );
  }
  return list(env, 'TRUST_PROXY').map((entry) => {
    const name = PROXY_RANGES.find((r) => r === entry.toLowerCase());
    if (name) {
      return name;
    }
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    if (
      family === 0 ||
      rest.length > 0 ||
      (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits))
    ) {
      throw refusal(`got "${entry}"`);
    }
    if (prefix !== undefined && Number(prefix) === 0) {
      throw refusal(`"${entry}" is every address: it would believe any client (see docs/operations.md)`);
    }
    return entry;
  });
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = text(env, 'HOST') ?? '127.0.0.1';
  // A name or an address: anything else would also corrupt the default PUBLIC_URL built from it.
  if (isIP(host) === 0 && !/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host)) {
    throw new ConfigError(`HOST must be a host name or an IP address, got "${host}"`);
  }
  const publicUrlRaw = text(env, 'PUBLIC_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let url: URL | null = null;
  try {
    url = new URL(publicUrlRaw);
  } catch {
    url = null;
  }
  // Checkout URLs are PUBLIC_URL + /checkout/{id}: a query, a fragment or credentials would break or leak them.
  if (
    url === null ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !/^https?:\/\/[^/?#]/i.test(publicUrlRaw) ||
    /[?#]/.test(publicUrlRaw) ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new ConfigError(
      `PUBLIC_URL must be an absolute http(s) URL without query, fragment or credentials, got "${publicUrlRaw}"`,
    );
  }
  const publicUrl = publicUrlRaw.replace(/\/+$/, '');

  const databaseUrl = text(env, 'DATABASE_URL') ?? 'sqlite:./data/cobro.db';
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be sqlite:PATH or postgres://USER@HOST:PORT/DB');
  }

  const apiKey = text(env, 'BOOTSTRAP_API_KEY');
  const apiSecret = text(env, 'BOOTSTRAP_API_SECRET');
  if ((apiKey === undefined) !== (apiSecret === undefined)) {
    throw new ConfigError('BOOTSTRAP_API_KEY and BOOTSTRAP_API_SECRET must be set together');
  }
  if (apiKey !== undefined && !/^ck_test_[A-Za-z0-9_]{8,80}$/.test(apiKey)) {
    throw new ConfigError('BOOTSTRAP_API_KEY must look like ck_test_ followed by 8 to 80 letters, digits or _');
  }
  if (apiSecret !== undefined && !/^cs_test_[A-Za-z0-9_]{16,120}$/.test(apiSecret)) {
    throw new ConfigError('BOOTSTRAP_API_SECRET must look like cs_test_ followed by 16 to 120 letters, digits or _');
  }

  return {
    port,
    host,
    publicUrl,
    databaseUrl,
    bootstrap: apiKey !== undefined && apiSecret !== undefined ? { apiKey, apiSecret } : null,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    rateLimitPerSecond: integer(env, 'RATE_LIMIT_PER_SECOND', 100, 1, 1_000_000),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 100, 1, 1_000_000),
    trustProxy: trustedProxies(env),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 65_536, 1024, 10_485_760),
    idempotencyRetentionHours: integer(env, 'IDEMPOTENCY_RETENTION_HOURS', 24, 24, 24 * 30),
    cardRecoveryAfterMs: integer(env, 'CARD_RECOVERY_AFTER_SECONDS', 60, 5, 3600) * 1000,
    ratesFile: text(env, 'RATES_FILE') ?? null,
    sqliteSynchronous: oneOf(env, 'SQLITE_SYNCHRONOUS', ['FULL', 'EXTRA', 'NORMAL'] as const, 'FULL'),
    pgPoolSize: integer(env, 'PG_POOL_SIZE', 10, 1, 200),
    webhooks: {
      allowPrivateNetworks: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
      allowlist: list(env, 'WEBHOOK_ALLOWLIST').map((entry) => {
        if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(entry)) {
          throw new ConfigError(`WEBHOOK_ALLOWLIST entries must be host:port or [ipv6]:port, got "${entry}"`);
        }
        return entry;
      }),
      retryDelaysSeconds: (() => {
        const raw = list(env, 'WEBHOOK_RETRY_DELAYS');
        if (raw.length === 0) {
          return [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
        }
        return raw.map((d) => {
          if (!/^\d+(\.\d+)?$/.test(d) || Number(d) > 30 * 86400) {
            throw new ConfigError(`WEBHOOK_RETRY_DELAYS must be seconds separated by commas, got "${d}"`);
          }
          return Number(d);
        });
      })(),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000),
      maxConcurrencyPerEndpoint: integer(env, 'WEBHOOK_MAX_CONCURRENCY', 4, 1, 100),
      secretOverlapSeconds: integer(env, 'WEBHOOK_SECRET_OVERLAP_SECONDS', 86_400, 0, 30 * 86_400),
    },
    subscriptions: {
      retryDays: (() => {
        const raw = list(env, 'SUBSCRIPTION_RETRY_DAYS');
        if (raw.length === 0) {
          return [1, 3, 5];
        }
        const days = raw.map((d) => {
          if (!/^\d+(\.\d+)?$/.test(d) || Number(d) <= 0 || Number(d) > 365) {
            throw new ConfigError(`SUBSCRIPTION_RETRY_DAYS must be days separated by commas, got "${d}"`);
          }
          return Number(d);
        });
        if (days.some((d, i) => i > 0 && d <= (days[i - 1] ?? 0))) {
          throw new ConfigError('SUBSCRIPTION_RETRY_DAYS must be increasing');
        }
        return days;
      })(),
      cancelWhenRetriesExhausted: boolean(env, 'SUBSCRIPTION_CANCEL_AFTER_RETRIES', true),
      renewalNoticeHours: integer(env, 'RENEWAL_NOTICE_HOURS', 72, 0, 24 * 30),
    },
    chains: {
      bitcoinEsploraUrl: httpUrl(env, 'BITCOIN_ESPLORA_URL'),
      confirmations: {
        bitcoin: integer(env, 'BITCOIN_CONFIRMATIONS', 2, 1, 100),
        ethereum: integer(env, 'ETHEREUM_CONFIRMATIONS', 2, 1, 1000),
        polygon: integer(env, 'POLYGON_CONFIRMATIONS', 2, 1, 1000),
        base: integer(env, 'BASE_CONFIRMATIONS', 2, 1, 1000),
      },
      evm: {
        ethereum: evmNetwork(env, 'ETHEREUM'),
        polygon: evmNetwork(env, 'POLYGON'),
        base: evmNetwork(env, 'BASE'),
      },
      pollMs: integer(env, 'CHAIN_POLL_SECONDS', 15, 1, 3600) * 1000,
      timeoutMs: integer(env, 'CHAIN_TIMEOUT_MS', 10_000, 100, 120_000),
    },
    stripe: {
      apiUrl: stripeApiUrl(env),
      timeoutMs: integer(env, 'STRIPE_TIMEOUT_MS', 20_000, 100, 120_000),
    },
    pix: {
      timeoutMs: integer(env, 'PIX_API_TIMEOUT_MS', 15_000, 100, 120_000),
    },
    smtpUrl: text(env, 'SMTP_URL') ?? null,
    mailFrom: text(env, 'MAIL_FROM') ?? 'Cobro <no-reply@cobro.invalid>',
    secretsKey: (() => {
      const raw = text(env, 'SECRETS_KEY');
      if (raw === undefined) {
        return null;
      }
      const key = Buffer.from(raw, 'base64');
      if (key.length !== 32) {
        throw new ConfigError('SECRETS_KEY must be 32 bytes in base64 (openssl rand -base64 32)');
      }
      return key;
    })(),
  };
}
