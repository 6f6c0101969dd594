import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { url: string; headers: http.IncomingHttpHeaders; body: string; at: number };

/**
 * A webhook receiver on loopback. `respond` decides each answer (status, headers, delay), so
 * tests can play a healthy receiver, a failing one, a slow one or one that answers 410.
 */
export async function startReceiver(
  respond: (
    req: Received,
    n: number,
  ) => { status: number; headers?: Record<string, string>; delayMs?: number; hang?: boolean } = () => ({
    status: 200,
  }),
): Promise<{ url: string; port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(entry);
      const answer = respond(entry, received.length);
      if (answer.hang) {
        return;
      }
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end('ok');
      }, answer.delayMs ?? 0);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) {
          s.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

/** Runs the delivery job until nothing is due now (bounded), waiting for sends in between. */
export async function drainWebhooks(
  cobro: { delivery: { tick(): Promise<number>; idle(): Promise<void> } },
  rounds = 50,
): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const claimed = await cobro.delivery.tick();
    await cobro.delivery.idle();
    if (claimed === 0) {
      return;
    }
  }
}
