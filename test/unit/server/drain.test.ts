import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { drainHttpServer } from '../../../src/server/drain.ts';

// The drain's promise is about the order of events, not about time: a request whose bytes
// reached the server before the stop is answered however long the event loop is starved. Here
// every request costs 40 ms of synchronous work, so each turn of the loop takes far longer than
// the drain's windows (1 ms), which is what a saturated machine does to a server.

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // a request's synchronous work, as a starved server sees it
  }
}

function openConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sent on the socket until it closed it, or the error that ended it. */
function answer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code}`));
    socket.on('close', () => resolve(text));
  });
}

test('a drain answers every request sent before it began, even when the event loop is starved for longer than its windows', async (t) => {
  let draining = false;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      busyFor(40);
      res.setHeader('connection', draining ? 'close' : 'keep-alive');
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;

  // Twelve connections the server has not necessarily accepted yet, and a keep-alive one that
  // has already been served and then sits idle; each then gets a whole request in one write.
  const idle = await openConnection(port);
  const first = answer(idle);
  idle.write('GET /warm HTTP/1.1\r\nhost: x\r\n\r\n');
  await new Promise<void>((resolve) => idle.once('data', () => resolve()));
  const fresh = await Promise.all(Array.from({ length: 12 }, () => openConnection(port)));
  const sockets = [idle, ...fresh];
  const answers = [first, ...fresh.map(answer)];
  for (const socket of sockets) {
    socket.write('POST /order HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}');
  }

  // The bytes are in the server's kernel buffers now; the drain starts before it reads any.
  await drainHttpServer(
    server,
    () => {
      draining = true;
    },
    { acceptMs: 1, settleMs: 1, pollMs: 1, deadlineMs: 5_000 },
  );

  const texts = await Promise.all(answers);
  const served = texts.map((text) => (text.match(/HTTP\/1\.1 200/g) ?? []).length);
  // The idle connection's first answer plus its second; every other connection its one.
  assert.deepEqual(served, [2, ...fresh.map(() => 1)], texts.filter((x) => x.startsWith('error')).join(', '));
  assert.equal(server.listening, false);
});
