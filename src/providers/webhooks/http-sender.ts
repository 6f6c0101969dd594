import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy.ts';
import { addressAllowed, defaultPort, webhookUrlProblem } from './address-policy.ts';

export type SendResult = {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** At most the first kilobyte of the body, for the delivery log. */
  excerpt: string | null;
  retryAfterSeconds: number | null;
};

export type SendOptions = { timeoutMs: number; maxResponseBytes: number };

// Connections are kept alive between deliveries to the same receiver. Each new connection is
// resolved and checked by the pinned lookup below; a kept one stays on the address checked then.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 4, timeout: 30_000 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 4, timeout: 30_000 }),
};

/**
 * POSTs one webhook. The host is resolved here and every resolved address is checked before
 * the connection is made, and the connection goes to the address that was checked (no second
 * resolution, so DNS rebinding gains nothing). Redirects are never followed; the response body
 * is read up to a cap and dropped.
 */
export async function sendWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  policy: AddressPolicy,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  const problem = webhookUrlProblem(rawUrl, policy);
  if (problem) {
    return done({ statusCode: null, error: `refused: the URL ${problem}`, excerpt: null, retryAfterSeconds: null });
  }
  const url = new URL(rawUrl);
  const port = defaultPort(url);
  const pinnedLookup: LookupFunction = (hostname, opts, callback) => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) {
        callback(err, '', 4);
        return;
      }
      const denied = addresses.find((a) => !addressAllowed(a.address, port, policy));
      const chosen = addresses[0];
      if (denied || !chosen) {
        callback(new Error(`refused: ${hostname} resolves to a forbidden address`), '', 4);
        return;
      }
      if ((opts as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [chosen]);
      } else {
        callback(null, chosen.address, chosen.family);
      }
    });
  };
  const client = url.protocol === 'https:' ? https : http;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (!settled) {
        settled = true;
        resolve(done(r));
      }
    };
    const req = client.request(
      {
        method: 'POST',
        host,
        port,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        ...(isIP(host) ? {} : { lookup: pinnedLookup }),
        servername: isIP(host) ? undefined : host,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= options.maxResponseBytes) {
            chunks.push(chunk);
          } else {
            // Enough read: the answer's status is all that matters; drop the rest unread.
            res.destroy();
          }
        });
        const complete = () => {
          clearTimeout(deadline);
          const retryAfter = Number(res.headers['retry-after']);
          finish({
            statusCode: res.statusCode ?? null,
            error: null,
            excerpt: Buffer.concat(chunks).subarray(0, 1024).toString('utf8'),
            retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
          });
        };
        res.on('end', complete);
        res.on('close', complete);
        res.on('error', complete);
      },
    );
    // A total deadline, not an idle timeout: a receiver dripping bytes must not hold a slot.
    const deadline = setTimeout(() => {
      req.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', (error) => {
      finish({ statusCode: null, error: error.message, excerpt: null, retryAfterSeconds: null });
    });
    req.end(body);
  });
}
