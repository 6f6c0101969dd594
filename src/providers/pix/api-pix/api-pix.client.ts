import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ConnectorError } from '../../../domain/connectors/card-connector.ts';
import type { PixAccess } from '../../../domain/connectors/pix-connector.ts';
import { PIX_SCOPES, PROFILES } from './api-pix.profiles.ts';

export type ApiPixClientOptions = {
  /** Per call, from the request to the last byte of the answer. */
  timeoutMs: number;
  /** An answer past this many bytes is cut off and the call fails: no PSP answer of Cobro's is that big. */
  maxResponseBytes: number;
  /** A token is renewed this long before the PSP said it expires, so no call carries one about to lapse. */
  tokenMarginMs: number;
  now: () => number;
};

export const DEFAULT_API_PIX_OPTIONS: ApiPixClientOptions = {
  timeoutMs: 15_000,
  maxResponseBytes: 256 * 1024,
  tokenMarginMs: 30_000,
  now: () => Date.now(),
};

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };
type Json = Record<string, unknown>;

/**
 * HTTPS with the merchant's client certificate (mutual TLS) on every call, an OAuth2
 * client-credentials token reused until shortly before it expires (renewed once when the PSP
 * says it no longer takes it), a time limit and a size cap on every answer. Failures come back
 * as ConnectorError, with the PSP's problem details (RFC 7807 and the specification's
 * `violacoes`) in words; no message holds a secret.
 */
export class ApiPixClient {
  private readonly tokens = new Map<string, { token: string; renewAt: number }>();

  constructor(private readonly options: ApiPixClientOptions = DEFAULT_API_PIX_OPTIONS) {}

  /** A token for these credentials: the one held while it is good, else a new one (a real call). */
  async token(access: PixAccess, fresh = false): Promise<string> {
    const key = credentialKey(access);
    const held = this.tokens.get(key);
    if (!fresh && held && held.renewAt > this.options.now()) {
      return held.token;
    }
    const rules = PROFILES[access.profile];
    const basic = `Basic ${Buffer.from(`${access.clientId}:${access.clientSecret}`).toString('base64')}`;
    let headers: Record<string, string>;
    let body: string;
    switch (rules.tokenRequest) {
      case 'basic-form':
        headers = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
        body = new URLSearchParams({ grant_type: 'client_credentials' }).toString();
        break;
      case 'basic-json':
        headers = { authorization: basic, 'content-type': 'application/json' };
        body = JSON.stringify({ grant_type: 'client_credentials' });
        break;
      case 'form-credentials':
        headers = { 'content-type': 'application/x-www-form-urlencoded' };
        body = new URLSearchParams({
          client_id: access.clientId,
          client_secret: access.clientSecret,
          grant_type: 'client_credentials',
          scope: PIX_SCOPES.join(' '),
        }).toString();
        break;
    }
    const answer = await this.send(access, 'POST', access.tokenUrl, headers, body);
    if (answer.status === 401 || answer.status === 403 || answer.status === 400) {
      throw new ConnectorError(
        'AUTH',
        `the PSP refused the client credentials at ${safeUrl(access.tokenUrl)} (HTTP ${answer.status}${problemText(answer)})`,
      );
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw failure('token', answer);
    }
    const json = parseJson(answer.body);
    const token = json?.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new ConnectorError('UNAVAILABLE', 'the PSP answered the token request without an access_token');
    }
    const expiresIn = Number(json?.expires_in);
    const lifetimeMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : 60_000;
    const margin = Math.min(this.options.tokenMarginMs, lifetimeMs / 2);
    this.tokens.set(key, { token, renewAt: this.options.now() + lifetimeMs - margin });
    return token;
  }

  /** Forgets every token held for these credentials (the next call asks for a new one). */
  forget(access: PixAccess): void {
    this.tokens.delete(credentialKey(access));
  }

  /**
   * One API call: `path` relative to the API root, a JSON body or none. Answers with the status
   * and the parsed body; a 401 (the token lapsed or was revoked early) is retried once with a new
   * token. The caller decides what each status means; `failure()` words the others.
   */
  async call(
    access: PixAccess,
    method: 'GET' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: Json,
  ): Promise<{ status: number; json: Json | null; answer: Answer }> {
    const url = `${access.baseUrl}${path}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      const token = await this.token(access, attempt > 0);
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
      }
      const answer = await this.send(access, method, url, headers, payload);
      if (answer.status === 401 && attempt === 0) {
        this.forget(access);
        continue;
      }
      if (answer.status === 401) {
        throw new ConnectorError('AUTH', `the PSP refused a fresh token for ${method} ${path}${problemText(answer)}`);
      }
      return { status: answer.status, json: parseJson(answer.body), answer };
    }
  }

  private send(
    access: PixAccess,
    method: string,
    target: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Answer> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return Promise.reject(new ConnectorError('REJECTED', `not a URL: ${safeUrl(target)}`));
    }
    if (url.protocol !== 'https:') {
      // Credentials and the client certificate never travel in clear, not even to this machine.
      return Promise.reject(
        new ConnectorError('REJECTED', `API Pix calls must use https:// (refused ${url.protocol} ${safeUrl(target)})`),
      );
    }
    const cert = access.certificate;
    const { maxResponseBytes, timeoutMs } = this.options;
    return new Promise<Answer>((resolve, reject) => {
      let settled = false;
      const done = (error: ConnectorError | null, answer?: Answer) => {
        if (settled) {
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (error) {
          req.destroy();
          reject(error);
        } else {
          resolve(answer as Answer);
        }
      };
      let req: ReturnType<typeof httpsRequest>;
      try {
        req = httpsRequest(
          url,
          {
            method,
            headers: {
              ...headers,
              ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
            },
            // One connection per call: no credentials of one merchant ever ride another's socket.
            agent: false,
            minVersion: 'TLSv1.2',
            ...(cert.kind === 'pem'
              ? { cert: cert.cert, key: cert.key }
              : {
                  pfx: Buffer.from(cert.pfxBase64, 'base64'),
                  ...(cert.passphrase ? { passphrase: cert.passphrase } : {}),
                }),
            ...(access.ca ? { ca: access.ca } : {}),
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > maxResponseBytes) {
                done(
                  new ConnectorError(
                    'UNAVAILABLE',
                    `the PSP's answer to ${method} ${url.pathname} is over ${maxResponseBytes} bytes; not read`,
                  ),
                );
                return;
              }
              chunks.push(chunk);
            });
            res.on('end', () =>
              done(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
            res.on('error', (error) => done(networkError(error, method, url)));
          },
        );
      } catch (error) {
        // A certificate, key or bundle Node cannot load fails here, before any connection.
        settled = true;
        reject(networkError(error as Error, method, url));
        return;
      }
      const timer = setTimeout(
        () =>
          done(
            new ConnectorError(
              'UNAVAILABLE',
              `the PSP did not answer ${method} ${url.pathname} within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      req.on('error', (error) => done(networkError(error, method, url)));
      req.end(body);
    });
  }
}

/** Tokens are held per set of credentials (the same client id with another secret or certificate is another). */
function credentialKey(access: PixAccess): string {
  const cert = access.certificate;
  return createHash('sha256')
    .update(
      JSON.stringify([
        access.tokenUrl,
        access.clientId,
        access.clientSecret,
        cert.kind === 'pem' ? cert.cert : cert.pfxBase64,
      ]),
    )
    .digest('hex');
}

function parseJson(body: Buffer): Json | null {
  if (body.length === 0) {
    return null;
  }
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value !== null && typeof value === 'object' ? (value as Json) : null;
  } catch {
    return null;
  }
}

/** A URL as it may appear in a message: scheme, host and path only. */
function safeUrl(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(unreadable URL)';
  }
}

const TLS_CLIENT_REFUSED = /alert|handshake|certificate required|bad certificate|unknown ca|EPROTO|ECONNRESET/i;
const TLS_SERVER_UNTRUSTED =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|ERR_TLS_CERT_ALTNAME_INVALID|CERT_UNTRUSTED)$/;

function networkError(error: Error & { code?: string }, method: string, url: URL): ConnectorError {
  const code = error.code ?? '';
  if (TLS_SERVER_UNTRUSTED.test(code)) {
    return new ConnectorError(
      'AUTH',
      `the PSP's server certificate at ${url.host} is not trusted (${code}); if the PSP uses its own CA, give it with --ca`,
    );
  }
  if (
    /^ERR_OSSL|^ERR_SSL|bad decrypt|mac verify|PEM|no start line|key values mismatch/i.test(`${code} ${error.message}`)
  ) {
    return new ConnectorError(
      'AUTH',
      `the client certificate or key cannot be used (${error.message.split('\n')[0]}); check the files (and the PKCS#12 passphrase)`,
    );
  }
  if (TLS_CLIENT_REFUSED.test(`${code} ${error.message}`)) {
    return new ConnectorError(
      'AUTH',
      `the PSP at ${url.host} refused the TLS connection for ${method} ${url.pathname} (${code || error.message}); is the client certificate the one it issued for these credentials?`,
    );
  }
  return new ConnectorError('UNAVAILABLE', `the PSP at ${url.host} could not be reached (${code || error.message})`);
}

/**
 * A problem-details answer in words: its title and detail, then each `violacoes` entry as
 * "property: reason". Empty when the answer holds none.
 */
export function problemText(answer: Answer): string {
  const json = parseJson(answer.body);
  if (!json) {
    return '';
  }
  const parts: string[] = [];
  for (const key of ['title', 'detail', 'error_description', 'error']) {
    const value = json[key];
    if (typeof value === 'string' && value !== '' && !parts.includes(value)) {
      parts.push(value);
    }
  }
  const violations = Array.isArray(json.violacoes) ? json.violacoes : [];
  for (const v of violations.slice(0, 10)) {
    const entry = (v ?? {}) as Json;
    const where = typeof entry.propriedade === 'string' ? entry.propriedade : null;
    const why = typeof entry.razao === 'string' ? entry.razao : 'invalid';
    parts.push(where ? `${where}: ${why}` : why);
  }
  return parts.length > 0 ? `: ${parts.join('; ').slice(0, 600)}` : '';
}

/** A status the caller did not expect, as ConnectorError: 5xx and 429 may work later; 404 names nothing; the rest is refused. */
export function failure(what: string, answer: Answer): ConnectorError {
  const text = `${what}: HTTP ${answer.status}${problemText(answer)}`;
  if (answer.status >= 500 || answer.status === 429 || answer.status === 0) {
    return new ConnectorError('UNAVAILABLE', `the PSP could not do it now (${text})`);
  }
  if (answer.status === 403) {
    return new ConnectorError('AUTH', `the PSP does not allow it (${text}); the credentials may lack a scope`);
  }
  if (answer.status === 404) {
    return new ConnectorError('NOT_FOUND', `the PSP has no such object (${text})`);
  }
  return new ConnectorError('REJECTED', `the PSP refused it (${text})`);
}
