import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import net, { isIP } from 'node:net';
import tls from 'node:tls';
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

export type ResolvedAddress = { address: string; family: number };
/** Every address a host name resolves to (the system resolver, by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Where a connection goes: always an address that was checked, never a name. */
export type ConnectTarget = {
  protocol: 'http:' | 'https:';
  address: string;
  port: number;
  /** The receiver's host name for TLS SNI and certificate checks; undefined for an IP literal. */
  servername: string | undefined;
};
/** Opens the connection (plain TCP, or TLS for https). The network is the outside world: tests inject one. */
export type Connector = (target: ConnectTarget) => Socket;

export type WebhookSender = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export const networkConnector: Connector = (target) => {
  const socket =
    target.protocol === 'https:'
      ? tls.connect({
          host: target.address,
          port: target.port,
          ...(target.servername ? { servername: target.servername } : {}),
        })
      : net.connect({ host: target.address, port: target.port });
  // As Node's own agents do: a request's last bytes go out at once, not after the previous
  // write's ACK (Nagle), which on a reused connection could add a delayed-ACK wait per request.
  socket.setNoDelay(true);
  return socket;
};

type Outcome = Omit<SendResult, 'durationMs'>;
const failed = (error: string): Outcome => ({ statusCode: null, error, excerpt: null, retryAfterSeconds: null });

/**
 * A webhook sender. The host name is resolved here, every address it resolves to is checked,
 * and the connection goes to the first checked address (no second resolution, so DNS rebinding
 * gains nothing); `Host` and TLS SNI carry the original name. Redirects are never followed; the
 * response body is read up to a cap and dropped. Connections are kept alive per receiver
 * address and name.
 */
export function createWebhookSender(config: {
  policy: AddressPolicy;
  options: SendOptions;
  resolve?: Resolver;
  connect?: Connector;
}): WebhookSender & { close(): void } {
  const { policy, options } = config;
  const resolve = config.resolve ?? systemResolver;
  const connect = config.connect ?? networkConnector;
  // The agents only pool; every new socket comes from the connector, aimed at the pinned
  // address the request names as its host (so the pool is keyed by that address, and for
  // https by the server name too).
  const pooled = <A extends http.Agent>(agent: A, protocol: ConnectTarget['protocol']): A => {
    agent.createConnection = (opts: http.ClientRequestArgs & tls.ConnectionOptions) =>
      connect({
        protocol,
        address: String(opts.host),
        port: Number(opts.port),
        servername: opts.servername ? opts.servername : undefined,
      });
    return agent;
  };
  const agents = {
    'http:': pooled(new http.Agent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 4, timeout: 30_000 }), 'http:'),
    'https:': pooled(
      new https.Agent({ keepAlive: true, maxSockets: 16, maxFreeSockets: 4, timeout: 30_000 }),
      'https:',
    ),
  };

  const send: WebhookSender = async (rawUrl, headers, body) => {
    const started = performance.now();
    const done = (r: Outcome): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
    const problem = webhookUrlProblem(rawUrl, policy);
    if (problem) {
      return done(failed(`refused: the URL ${problem}`));
    }
    const url = new URL(rawUrl);
    const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
    const port = defaultPort(url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let address = host;
    if (!isIP(host)) {
      let addresses: ResolvedAddress[];
      try {
        addresses = await resolve(host);
      } catch (error) {
        return done(failed(`could not resolve ${host}: ${(error as Error).message}`));
      }
      const chosen = addresses[0];
      if (!chosen || addresses.some((a) => !addressAllowed(a.address, port, policy))) {
        return done(failed(`refused: ${host} resolves to a forbidden address`));
      }
      address = chosen.address;
    }
    return new Promise<SendResult>((resolveResult) => {
      let settled = false;
      let closed = false;
      let answered: Outcome | null = null;
      let responded = false;
      const finish = (r: Outcome) => {
        if (!settled) {
          settled = true;
          resolveResult(done(r));
        }
      };
      const req = (protocol === 'https:' ? https : http).request(
        {
          method: 'POST',
          host: address,
          port,
          path: `${url.pathname}${url.search}`,
          // The name the merchant gave, not the address: virtual hosts and certificates depend on it.
          headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
          agent: agents[protocol],
          servername: isIP(host) ? '' : host,
        },
        (res) => {
          responded = true;
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
            answered = {
              statusCode: res.statusCode ?? null,
              error: null,
              excerpt: Buffer.concat(chunks).subarray(0, 1024).toString('utf8'),
              retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
            };
            if (closed) {
              finish(answered);
            }
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
      // The outcome is reported once the request has let go of its connection (a kept-alive
      // socket is back in the pool by then), so the caller's next request to the same receiver
      // reuses it instead of opening one more connection.
      req.on('close', () => {
        closed = true;
        clearTimeout(deadline);
        if (answered) {
          finish(answered);
        } else if (!responded) {
          finish(failed('the connection closed before an answer'));
        }
        // Else the answer is still being read (a receiver that closes after answering can close
        // before its body's end is read here): `complete` finishes it.
      });
      req.on('error', (error) => finish(failed(error.message)));
      req.end(body);
    });
  };
  return Object.assign(send, {
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}
