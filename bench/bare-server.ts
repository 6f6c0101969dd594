import { createServer } from 'node:http';

/**
 * The ceiling every Cobro figure is compared with: node:http answering a fixed small JSON
 * body, with nothing else in the way. Started by bench/run.ts on PORT, loopback only.
 */
const BODY = JSON.stringify({ status: 'ok', service: 'bare', items: [1, 2, 3] });
const LENGTH = String(Buffer.byteLength(BODY));

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': LENGTH });
  res.end(BODY);
});

server.listen(Number(process.env.PORT ?? '0'), '127.0.0.1', () => {
  process.stdout.write('bare server ready\n');
});

process.on('SIGTERM', () => server.close(() => process.exit(0)));
