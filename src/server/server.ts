import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import { newId } from '../domain/shared/ids.ts';
import '../http/types.ts';
import type { ChainSourceStatus } from '../domain/payment-methods/payment-provider.ts';
import { registerApi } from '../http/api.ts';
import { handleError, registerErrorHandlers } from '../http/plugins/errors.ts';
import type { Services } from '../services.ts';
import { registerPages } from '../web/pages.ts';
import type { DrainOptions } from './drain.ts';
import { drainHttpServer } from './drain.ts';
import { registerJsonBodies } from './json-body.ts';
import { lazyCompilers } from './lazy-compilers.ts';
import { createHttpMetrics } from './metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Stops taking connections and answers every request already sent (drain.ts); then `close()`. */
    drain(options: DrainOptions): Promise<void>;
  }
  interface FastifyContextConfig {
    /**
     * Path parameters that are bearer secrets (an invitation's or a password reset's token): the
     * request log writes `[redacted]` in their place, so a log line never opens the link.
     */
    secretParams?: readonly string[];
  }
}

export type ServerOptions = {
  logger: Logger;
  bodyLimitBytes: number;
  rateLimitPerSecond: number;
  authFailuresPerMinute: number;
  /**
   * The reverse proxies whose `X-Forwarded-For` is believed (config TRUST_PROXY): `req.ip`, which
   * every per-address limit counts by, is then the client's address; false: the socket's.
   */
  trustProxy: false | string[];
  publicUrl: string;
  /** Whether mails go out over SMTP (the test-mode mailbox page says so). */
  smtpConfigured?: boolean;
  /** Reports whether the database answers (GET /ready). */
  ping: () => Promise<void>;
  /** Live mode's chain sources, by network (GET /ready's detail and the metrics). */
  chains?: () => Record<string, ChainSourceStatus>;
};

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Request ids only need to be unique, not secret: a random per-process prefix and a counter
// cost nothing, where a CSPRNG id per request showed up in profiles.
const REQUEST_ID_PREFIX = requestIdPrefix(newId());
let requestCounter = 0;
const nextRequestId = (): string => requestId(REQUEST_ID_PREFIX, requestCounter++);

/** A request id: the process's prefix and its counter, 22 characters. */
export function requestId(prefix: string, counter: number): string {
  return `${prefix}${counter.toString(36).padStart(12, '0')}`;
}

/**
 * The first 10 characters of every request id this process makes, from a random id: nine of its
 * characters and a letter. The counter after it is 12 characters, mostly zeros, so a prefix
 * ending in a digit made ids such as `…p4000000000006`, whose last 13 characters are a
 * Luhn-valid card number, and request ids are in every log line: log scanners that look for
 * card numbers (13 to 19 digits) must never find one there.
 */
export function requestIdPrefix(random: string): string {
  return `${random.slice(0, 9)}r`;
}

const PATH_PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * The path a log line writes for `req`: never the query string (credentials someone put there),
 * and a route's secret path parameters (`secretParams` in its config) as `[redacted]`, the
 * other parameters as they came.
 */
export function loggedPath(req: FastifyRequest): string {
  const url = req.url;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const secret = req.routeOptions.config?.secretParams;
  if (secret === undefined) {
    return path;
  }
  const params = req.params as Record<string, string | undefined>;
  return (req.routeOptions.url ?? '').replace(PATH_PARAM, (_match, name: string) =>
    secret.includes(name) ? '[redacted]' : encodeURIComponent(params[name] ?? ''),
  );
}

/**
 * Builds the HTTP server: request ids, logging, metrics, draining, body parsing and error
 * answers for everything it serves, then the JSON API (http/) and the pages (web/) side by side.
 * Never listens (main.ts and tests decide how it is served).
 */
export async function buildServer(deps: Services, options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    // One cheap line per request is written below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimitBytes,
    trustProxy: options.trustProxy,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : nextRequestId();
    },
    schemaController: { compilersFactory: lazyCompilers() },
    ajv: {
      customOptions: {
        // A string amount must not slip through as a number, nor a number as a string.
        coerceTypes: false,
        // Unknown members are ignored by the handlers (they map field by field), not stripped or refused.
        removeAdditional: false,
        allErrors: true,
        strictNumbers: true,
      },
    },
    // Requests that reach the server while it stops are answered (drain.ts stops taking new connections).
    return503OnClosing: false,
    // Malformed percent-encoding and over-long path parameters answer with the API's error body too.
    frameworkErrors: (error, req, reply) => handleError(error, req, reply),
    // drain.ts closes idle connections once the requests already sent have been read.
    forceCloseConnections: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // 1. Every answer carries the request id, errors included; while the server drains, each
  //    answer also ends its connection (see drain.ts).
  let draining = false;
  app.decorate('drain', (drainOptions: DrainOptions) =>
    drainHttpServer(
      app.server,
      () => {
        draining = true;
      },
      drainOptions,
    ),
  );
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    if (draining) {
      reply.header('connection', 'close');
    }
    done();
  });
  const metrics = createHttpMetrics(options.chains);
  // One callback-style hook for both the log line and the metrics: an async hook per concern
  // cost a promise each on every request.
  app.addHook('onResponse', (req, reply, done) => {
    // reqId comes from the request's child logger; whole microseconds keep the line short.
    req.log.info(
      {
        method: req.method,
        path: loggedPath(req),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 1000) / 1000,
      },
      'request',
    );
    metrics.observe(req, reply);
    done();
  });

  // 2. Bodies: JSON only, parsed safely (json-body.ts).
  registerJsonBodies(app, options.bodyLimitBytes);

  registerErrorHandlers(app);

  // 3. The JSON API and the pages, side by side.
  await registerApi(app, deps, {
    publicUrl: options.publicUrl,
    rateLimitPerSecond: options.rateLimitPerSecond,
    authFailuresPerMinute: options.authFailuresPerMinute,
    ping: options.ping,
    chains: options.chains,
    metrics: metrics.registry,
  });
  await registerPages(app, deps, {
    smtpConfigured: options.smtpConfigured ?? false,
    countRefusal: metrics.countRefusal,
  });

  return app;
}
