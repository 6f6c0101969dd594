import Fastify from 'fastify';
import pino from 'pino';

/**
 * The framework's own floor, beside the bare server: Fastify (the version Cobro runs) answering
 * the bare server's fixed JSON body, with nothing of Cobro's in the way. Started by bench/run.ts
 * on PORT, loopback only.
 *
 * With LOGGED=1 it also does what every Cobro answer does besides its route's work: the
 * `x-request-id` header and one JSON log line per request in an onResponse hook, through pino to
 * a buffered destination (as src/wiring/logging.ts's defaultLogger and src/server/server.ts). A Cobro row cannot
 * do better than this one; the distance between them is Cobro's work per request (authentication,
 * validation, the database, serialising, metrics).
 */
const BODY = JSON.stringify({ status: 'ok', service: 'bare', items: [1, 2, 3] });
const logged = process.env.LOGGED === '1';

const app = Fastify(
  logged
    ? {
        loggerInstance: pino({ level: 'info' }, pino.destination({ sync: false, minLength: 8192 })),
        disableRequestLogging: true,
        requestIdHeader: false,
      }
    : { logger: false },
);

if (logged) {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info(
      { method: req.method, path: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 1000) / 1000 },
      'request',
    );
    done();
  });
}

app.get('/', (_req, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(BODY);
});

await app.listen({ port: Number(process.env.PORT ?? '0'), host: '127.0.0.1' });
process.stderr.write('framework server ready\n');
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
