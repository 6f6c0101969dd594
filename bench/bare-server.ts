import { createServer } from 'node:http';

/**
 * The ceiling every Cobro figure is compared with: node:http answering a fixed small JSON
 * body, with nothing else in the way. Started by bench/run.ts on PORT, loopback only.
 *
 * With WORK_US set, each request first keeps the CPU busy for that many microseconds: the
 * calibration rows, which show the ratio a server reaches when it does a known amount of work
 * per request under the same load (the ratio falls faster than the work alone explains, since
 * a server slower than its client pays for waking it on every answer).
 */
const BODY = JSON.stringify({ status: 'ok', service: 'bare', items: [1, 2, 3] });
const LENGTH = String(Buffer.byteLength(BODY));
const WORK_MS = Number(process.env.WORK_US ?? '0') / 1000;

const server = createServer((_req, res) => {
  if (WORK_MS > 0) {
    const until = performance.now() + WORK_MS;
    while (performance.now() < until) {
      // busy: stands for parsing, validating, querying and serialising
    }
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': LENGTH });
  res.end(BODY);
});

server.listen(Number(process.env.PORT ?? '0'), '127.0.0.1', () => {
  process.stdout.write('bare server ready\n');
});

process.on('SIGTERM', () => server.close(() => process.exit(0)));
