import type { Client, Middleware } from 'openapi-fetch';
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

/** A typed client of the Cobro API: `client.GET('/v1/…', { params })`, `client.POST(path, { body })`. */
export type CobroClient = Client<paths, 'application/json'>;

/** The fetch the client sends with: the platform's, or one given for tests, proxies or timeouts. */
export type FetchLike = (request: Request) => Promise<Response>;

export type CobroClientOptions = {
  /** Where Cobro answers, without `/v1`: `https://pay.example.com`. */
  baseUrl: string;
  /** `ck_test_…` or `ck_live_…`, sent as `x-api-key`. */
  apiKey: string;
  /** `cs_test_…` or `cs_live_…`, sent as `x-api-secret`. */
  apiSecret: string;
  /**
   * Tries after the first when the request fails on the network or is answered 429, 502, 503 or
   * 504. Default 2; 0 turns retrying off.
   */
  maxRetries?: number;
  /** Default: the global `fetch` (Node 20+, Deno, Bun, browsers). */
  fetch?: FetchLike;
};

export const DEFAULT_MAX_RETRIES = 2;

/** Answers worth another try: rate limited, or a gateway or server that is momentarily unavailable. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** Backoff without Retry-After: 0.5 s, 1 s, 2 s… up to 8 s, each with up to half of it taken off at random. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;
/** A Retry-After longer than this is handed back to the caller instead of waited out. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * A client of the Cobro API whose requests carry the key pair; every POST carries an
 * `Idempotency-Key` (a random UUID unless the caller sets one), and failed attempts are retried
 * with that same key, so a retried POST never does the work twice. HTTP errors are not thrown:
 * they come back as `{ error, response }` with the API's error body (`{ messages, code }`).
 */
export function createCobroClient(options: CobroClientOptions): CobroClient {
  const { baseUrl, apiKey, apiSecret } = options;
  if (!baseUrl || !apiKey || !apiSecret) {
    throw new TypeError('createCobroClient needs baseUrl, apiKey and apiSecret');
  }
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new TypeError(`maxRetries must be a whole number from 0, got ${String(options.maxRetries)}`);
  }
  // Looked up at each request, so a fetch replaced after the client was made is the one used.
  const send: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const client = createClient<paths, 'application/json'>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret },
    fetch: retrying(send, maxRetries),
  });
  client.use(idempotencyKeys);
  return client;
}

/** Sets a fresh Idempotency-Key on each POST that has none, before the first attempt. */
const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', crypto.randomUUID());
    }
    return request;
  },
};

/**
 * `send` with up to `maxRetries` more attempts. A request's body can be read once: each attempt
 * but the last sends a clone, so the original still holds the body for the next one. The same
 * headers (the Idempotency-Key among them) go with every attempt.
 */
export function retrying(send: FetchLike, maxRetries: number, random: () => number = Math.random): FetchLike {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries;
      let response: Response;
      try {
        response = await send(last ? request : request.clone());
      } catch (error) {
        // The caller's own abort is an answer, not a failure.
        if (last || request.signal.aborted) {
          throw error;
        }
        await pause(backoffMs(attempt, random), request.signal);
        continue;
      }
      if (last || !RETRY_STATUSES.has(response.status)) {
        return response;
      }
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt, random);
      if (wait > MAX_RETRY_AFTER_MS) {
        return response;
      }
      // Read nothing of an answer that is thrown away, and free its connection.
      await response.body?.cancel();
      await pause(wait, request.signal);
    }
  };
}

/** Exponential backoff with jitter: attempt 0 waits 250–500 ms, attempt 1 500–1000 ms, … */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP-date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | null {
  const value = header?.trim();
  if (!value) {
    return null;
  }
  if (/^\d+(\.\d+)?$/.test(value)) {
    return Math.round(Number(value) * 1000);
  }
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
