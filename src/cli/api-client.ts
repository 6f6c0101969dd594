/**
 * The client of the developer commands (`listen`, `trigger`): they talk to a running Cobro
 * through its public API with the merchant's key pair, never to the database, with the same
 * typed client merchants use (@cobro/sdk: credentials, an Idempotency-Key on every POST, retries).
 */
import type { CobroClient } from '@cobro/sdk';
import { createCobroClient } from '@cobro/sdk';

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** What an SDK call resolves to: the data of a 2xx answer, or the error body of any other. */
type Answer<T> = { data?: T; error?: unknown; response: Response };

export type ApiClient = {
  apiUrl: string;
  apiKey: string;
  sdk: CobroClient;
  /** The SDK call's answer; an API that cannot be reached is a CliError. */
  answer<A>(call: Promise<A>): Promise<A>;
  /** The data of a 2xx answer; an unreachable API or any other answer is a CliError naming the call. */
  data<T>(call: Promise<Answer<T>>): Promise<T>;
};

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';
/** One attempt of a request; the SDK retries a timed-out attempt like any failure to connect. */
const REQUEST_TIMEOUT_MS = 30_000;

/** COBRO_API_KEY / COBRO_API_SECRET from the environment; the API URL from the flag, COBRO_API_URL or the default. */
export function apiClientFromEnv(env: Record<string, string | undefined>, apiUrlFlag: string | undefined): ApiClient {
  const apiKey = env.COBRO_API_KEY?.trim() ?? '';
  const apiSecret = env.COBRO_API_SECRET?.trim() ?? '';
  if (apiKey === '' || apiSecret === '') {
    throw new CliError(
      'set COBRO_API_KEY and COBRO_API_SECRET to the key pair of the merchant (x-api-key / x-api-secret)',
      2,
    );
  }
  const raw = (apiUrlFlag ?? env.COBRO_API_URL ?? DEFAULT_API_URL).trim().replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new CliError(`--api-url must be an absolute http(s) URL, got "${raw}"`, 2);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`--api-url must be an absolute http(s) URL, got "${raw}"`, 2);
  }
  const sdk = createCobroClient({
    baseUrl: raw,
    apiKey,
    apiSecret,
    fetch: (request) => fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  });
  const answer = async <A>(call: Promise<A>): Promise<A> => {
    try {
      return await call;
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new CliError(`cannot reach the Cobro API at ${raw}: ${cause ?? (error as Error).message}`);
    }
  };
  return {
    apiUrl: raw,
    apiKey,
    sdk,
    answer,
    async data<T>(call: Promise<Answer<T>>): Promise<T> {
      const { data, error, response } = await answer(call);
      if (!response.ok || data === undefined) {
        const what = response.url ? new URL(response.url).pathname : 'the Cobro API';
        throw new CliError(`${what} answered ${response.status}: ${JSON.stringify(error ?? null).slice(0, 500)}`);
      }
      return data;
    },
  };
}
