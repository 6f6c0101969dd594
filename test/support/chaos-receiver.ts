import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';

/**
 * The chaos receiver of RELIABILITY.md 2.0: a webhook receiver on loopback that answers each
 * request in a mode drawn from a weighted, seeded PRNG (or a script), records every request,
 * and counts the connections it holds at once. Every mode but `ok` is a failure as the sender
 * sees it (`slow` is meant to outlast the sender's timeout), and after `maxConsecutiveFailures`
 * failures in a row for one webhook-id the next answer is `ok` (R9's sizing rule).
 */
export type ChaosMode =
  | { kind: 'ok' | '500' | '410' | 'hang' | 'reset-before-body' | 'reset-after-body' }
  | { kind: 'slow'; ms: number }
  | { kind: '3xx'; location: string }
  | { kind: '429'; retryAfterSeconds: number }
  | { kind: 'huge-body'; bytes: number };

export type ChaosOptions = {
  seed: number;
  /** Weighted modes; weights need not sum to anything in particular. */
  modes: readonly (readonly [ChaosMode, number])[];
  /** Failing answers in a row per webhook-id before the next one is forced `ok`; R9 uses 7. */
  maxConsecutiveFailures?: number;
  /** Decides instead of the draw when it returns a mode; `attempt` counts this webhook-id's requests from 1. */
  script?: (attempt: number, webhookId: string) => ChaosMode | undefined;
};

export type ChaosRequest = {
  webhookId: string;
  timestamp: string;
  signature: string;
  contentType: string;
  url: string;
  /** Null when the connection was reset before the body was read. */
  body: string | null;
  receivedAt: number;
  attempt: number;
  mode: ChaosMode['kind'];
};

export type ChaosReceiver = {
  url: string;
  port: number;
  requests: ChaosRequest[];
  /** Receiver-side dedupe: webhook-id → times a handler saw it (it acts only on the first). */
  processed: Map<string, number>;
  duplicatesIgnored(): number;
  maxConcurrentConnections(): number;
  connections(): number;
  /** Bytes of `huge-body` answers actually written before the sender hung up. */
  hugeBytesWritten(): number;
  close(): Promise<void>;
};

/** mulberry32: small, fast and good enough to make a chaos run reproducible from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function startChaosReceiver(options: ChaosOptions): Promise<ChaosReceiver> {
  const random = seededRandom(options.seed);
  const total = options.modes.reduce((sum, [, w]) => sum + w, 0);
  const cap = options.maxConsecutiveFailures ?? Number.POSITIVE_INFINITY;
  const requests: ChaosRequest[] = [];
  const processed = new Map<string, number>();
  const attempts = new Map<string, number>();
  const failuresInARow = new Map<string, number>();
  const sockets = new Set<Socket>();
  let open = 0;
  let maxOpen = 0;
  let accepted = 0;
  let hugeBytes = 0;

  const draw = (): ChaosMode => {
    let r = random() * total;
    for (const [mode, weight] of options.modes) {
      r -= weight;
      if (r < 0) {
        return mode;
      }
    }
    return { kind: 'ok' };
  };

  const server = http.createServer((req, res) => {
    const webhookId = String(req.headers['webhook-id'] ?? '');
    const attempt = (attempts.get(webhookId) ?? 0) + 1;
    attempts.set(webhookId, attempt);
    let mode = options.script?.(attempt, webhookId) ?? draw();
    if (mode.kind !== 'ok' && (failuresInARow.get(webhookId) ?? 0) >= cap) {
      mode = { kind: 'ok' };
    }
    failuresInARow.set(webhookId, mode.kind === 'ok' ? 0 : (failuresInARow.get(webhookId) ?? 0) + 1);
    const entry: ChaosRequest = {
      webhookId,
      timestamp: String(req.headers['webhook-timestamp'] ?? ''),
      signature: String(req.headers['webhook-signature'] ?? ''),
      contentType: String(req.headers['content-type'] ?? ''),
      url: req.url ?? '',
      body: null,
      receivedAt: Date.now(),
      attempt,
      mode: mode.kind,
    };
    requests.push(entry);
    if (mode.kind === 'reset-before-body') {
      req.socket.resetAndDestroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      entry.body = Buffer.concat(chunks).toString('utf8');
      // A handler acts on the event, then answers: ok, slow and huge-body answers are 2xx.
      if (mode.kind === 'ok' || mode.kind === 'slow' || mode.kind === 'huge-body') {
        processed.set(webhookId, (processed.get(webhookId) ?? 0) + 1);
      }
      answer(mode, res);
    });
  });

  const answer = (mode: ChaosMode, res: http.ServerResponse): void => {
    switch (mode.kind) {
      case 'ok':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return;
      case '500':
      case '410':
        res.writeHead(Number(mode.kind), { 'content-type': 'text/plain' }).end('no');
        return;
      case 'slow':
        setTimeout(() => {
          if (!res.destroyed) {
            res.writeHead(200, { 'content-type': 'text/plain' }).end('late');
          }
        }, mode.ms);
        return;
      case 'hang':
        return;
      case 'reset-before-body':
      case 'reset-after-body':
        res.socket?.resetAndDestroy();
        return;
      case '3xx':
        res.writeHead(302, { location: mode.location }).end();
        return;
      case '429':
        res.writeHead(429, { 'retry-after': String(mode.retryAfterSeconds) }).end('slow down');
        return;
      case 'huge-body': {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(mode.bytes) });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        let sent = 0;
        const pump = (): void => {
          while (sent < mode.bytes && !res.destroyed) {
            const n = Math.min(chunk.length, mode.bytes - sent);
            sent += n;
            hugeBytes += n;
            if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
              res.once('drain', pump);
              return;
            }
          }
          if (sent >= mode.bytes) {
            res.end();
          }
        };
        pump();
        return;
      }
    }
  };

  server.on('connection', (socket: Socket) => {
    accepted++;
    open++;
    maxOpen = Math.max(maxOpen, open);
    sockets.add(socket);
    socket.on('close', () => {
      open--;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    processed,
    duplicatesIgnored: () => [...processed.values()].reduce((sum, n) => sum + n - 1, 0),
    maxConcurrentConnections: () => maxOpen,
    connections: () => accepted,
    hugeBytesWritten: () => hugeBytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) {
          s.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback listener that only counts who connects: SSRF and redirect tests require 0. It
 * listens on 127.0.0.1 and, when the host has IPv6 loopback, on [::1] with the same port.
 */
export async function startCanary(): Promise<{
  url: string;
  port: number;
  connections(): number;
  close(): Promise<void>;
}> {
  let count = 0;
  const sockets = new Set<Socket>();
  const onConnection = (socket: Socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.destroy();
  };
  const v4 = net.createServer(onConnection);
  await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
  const port = (v4.address() as AddressInfo).port;
  const v6 = net.createServer(onConnection);
  const v6Listening = await new Promise<boolean>((resolve) => {
    v6.once('error', () => resolve(false));
    v6.listen(port, '::1', () => resolve(true));
  });
  const closeServer = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => count,
    close: async () => {
      for (const s of sockets) {
        s.destroy();
      }
      await closeServer(v4);
      if (v6Listening) {
        await closeServer(v6);
      }
    },
  };
}
