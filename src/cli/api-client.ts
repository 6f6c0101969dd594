/**
 * The small HTTP client of the developer commands (`listen`, `trigger`): they talk to a running
 * Cobro through its public API with the merchant's key pair, never to the database.
 */

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** What the developer commands send: reads, writes and DELETE (cancelling a subscription). */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export type ApiAnswer = { status: number; text: string; json: () => unknown };

export type ApiClient = {
  apiUrl: string;
  apiKey: string;
  request(method: HttpMethod, path: string, body?: unknown): Promise<ApiAnswer>;
  /** Like `request`, but anything but `expected` is a CliError naming the call and the answer. */
  expect<T>(expected: number, method: HttpMethod, path: string, body?: unknown): Promise<T>;
};

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

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
  const request = async (method: HttpMethod, path: string, body?: unknown): Promise<ApiAnswer> => {
    let res: Response;
    try {
      res = await fetch(`${raw}${path}`, {
        method,
        headers: {
          'x-api-key': apiKey,
          'x-api-secret': apiSecret,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new CliError(`cannot reach the Cobro API at ${raw}: ${cause ?? (error as Error).message}`);
    }
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) as unknown };
  };
  return {
    apiUrl: raw,
    apiKey,
    request,
    async expect<T>(expected: number, method: HttpMethod, path: string, body?: unknown): Promise<T> {
      const answer = await request(method, path, body);
      if (answer.status !== expected) {
        throw new CliError(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
      }
      return answer.json() as T;
    },
  };
}
