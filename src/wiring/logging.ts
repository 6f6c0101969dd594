import type { Logger, LoggerOptions } from 'pino';
import pino from 'pino';
import type { Config } from '../config/config.ts';

const REDACTED = '[Redacted]';
/**
 * `rawPacket`: the bytes of a request Node could not parse, which it hands to the client-error
 * log (Fastify's, at trace level); they hold the request's path, a link's token in it, and its
 * cookies.
 */
const SECRET_MEMBERS = [
  'apiSecret',
  'api_secret',
  'secret',
  'rawPacket',
  'secretKey',
  'secret_key',
  'webhookSecret',
  'webhook_secret',
  'clientSecret',
  'client_secret',
] as const;
/**
 * Processor credentials wherever they sit in a text (an error's message quoting a request, a
 * URL): Stripe's secret and restricted keys, webhook signing secrets, PaymentIntent client
 * secrets. `KEY_HINT` is the cheap test that spares every other text the regular expression.
 */
const KEY_HINT = /sk_|rk_|whsec_|_secret_/;
const KEY_TEXT =
  /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9*]+|\bwhsec_[A-Za-z0-9+/=]+|\bpi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+/g;
const SECRET_HEADERS = ['x-api-secret', 'authorization'] as const;

/** A shallow copy of `value` with `members` censored; an Error stays an Error, with its message and stack. */
function censored(value: object, members: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> =
    value instanceof Error
      ? Object.assign(Object.create(Object.getPrototypeOf(value)), value, {
          message: value.message,
          stack: value.stack,
        })
      : { ...value };
  for (const member of members) {
    copy[member] = REDACTED;
  }
  return copy;
}

/** `text` with every processor credential in it replaced; the same string when it holds none. */
function withoutKeys(text: string): string {
  return KEY_HINT.test(text) ? text.replace(KEY_TEXT, REDACTED) : text;
}

/** The string members of `value` that hold a processor credential. */
function keyedMembers(value: object): string[] {
  const found: string[] = [];
  for (const member of Object.keys(value)) {
    const text = (value as Record<string, unknown>)[member];
    if (typeof text === 'string' && KEY_HINT.test(text) && withoutKeys(text) !== text) {
      found.push(member);
    }
  }
  // An Error's message and stack are not enumerable.
  if (value instanceof Error && KEY_HINT.test(value.message)) {
    found.push('message', 'stack');
  }
  return found;
}

/**
 * Censors the members `*.apiSecret`, `*.api_secret`, `*.secret`, `*.rawPacket` (and the other
 * SECRET_MEMBERS), the headers `req.headers["x-api-secret"]` and `req.headers.authorization`,
 * and processor credentials in any text of the line or one level down (KEY_TEXT). It looks one
 * level into each member and copies only a line that holds such a member, where pino's own
 * `redact` would clone every line and every per-request child logger (docs/performance.md,
 * "Logging").
 */
export function scrubSecrets(line: Record<string, unknown>): Record<string, unknown> {
  let out = line;
  for (const key of Object.keys(line)) {
    const value = line[key];
    if (typeof value === 'string') {
      const clean = withoutKeys(value);
      if (clean !== value) {
        if (out === line) {
          out = { ...line };
        }
        out[key] = clean;
      }
      continue;
    }
    if (value === null || typeof value !== 'object') {
      continue;
    }
    let copy: Record<string, unknown> | null = null;
    const members = SECRET_MEMBERS.filter((m) => Object.hasOwn(value, m));
    if (members.length > 0) {
      copy = censored(value, members);
    }
    const keyed = keyedMembers(value);
    if (keyed.length > 0) {
      copy ??= censored(value, []);
      for (const member of keyed) {
        const text = (copy as Record<string, unknown>)[member];
        copy[member] = typeof text === 'string' ? withoutKeys(text) : REDACTED;
      }
    }
    const headers = key === 'req' ? (value as { headers?: unknown }).headers : undefined;
    if (headers !== null && typeof headers === 'object') {
      const secretHeaders = SECRET_HEADERS.filter((h) => Object.hasOwn(headers, h));
      if (secretHeaders.length > 0) {
        copy ??= { ...value };
        copy.headers = censored(headers, secretHeaders);
      }
    }
    if (copy) {
      if (out === line) {
        out = { ...line };
      }
      out[key] = copy;
    }
  }
  return out;
}

/** The production logger's options, wherever its lines go (tests that scan the logs use them too). */
export function loggerOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    // Belt and braces: nothing that looks like a credential is ever written.
    formatters: { log: scrubSecrets },
  };
}

/** How long a log line may wait in the buffer when traffic is too low to fill it. */
const LOG_FLUSH_INTERVAL_MS = 1_000;

/**
 * JSON lines on stdout, buffered: a write system call per line cost more than the rest of a
 * small request's logging, so lines are written 8 KB at a time (and at exit), and at least
 * every second, so that a quiet server's lines still show up promptly.
 */
export function defaultLogger(config: Pick<Config, 'logLevel'>): Logger {
  const logger = pino(loggerOptions(config), pino.destination({ sync: false, minLength: 8192 }));
  setInterval(() => logger.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  return logger;
}
