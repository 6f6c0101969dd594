import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import sjson from 'secure-json-parse';
import { AppError } from '../domain/shared/errors.ts';
import { newId } from '../domain/shared/ids.ts';
import { checkoutPages } from '../web/checkout/checkout.plugin.ts';
import { dashboardPages } from '../web/dashboard/dashboard.plugin.ts';
import { planLinkPages } from '../web/links/links.plugin.ts';
import { mailboxPages } from '../web/mailbox/mailbox.plugin.ts';
import { subscriptionPages } from '../web/subscriptions/subscriptions.plugin.ts';
import './types.ts';
import type { ChainSourceStatus } from '../providers/crypto-onchain/chain-watchers.ts';
import type { DrainOptions } from './drain.ts';
import { drainHttpServer } from './drain.ts';
import { lazyCompilers } from './lazy-compilers.ts';
import { AuthFailureLimiter, registerAuth } from './plugins/auth.ts';
import { handleError, registerErrorHandlers, sendError, sendJson } from './plugins/errors.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { createHttpMetrics } from './plugins/metrics.ts';
import type { RouteDeps } from './routes/deps.ts';
import { createCheckoutPreferenceRoute } from './routes/v1/checkout-preferences.create.ts';
import { getCheckoutPreferenceRoute } from './routes/v1/checkout-preferences.get.ts';
import { listCheckoutPreferencesRoute } from './routes/v1/checkout-preferences.list.ts';
import { listCurrenciesRoute } from './routes/v1/currencies.list.ts';
import { eventRoutes } from './routes/v1/events.ts';
import { archivePaymentLinkRoute } from './routes/v1/payment-links.archive.ts';
import { createPaymentLinkRoute } from './routes/v1/payment-links.create.ts';
import { getPaymentLinkRoute } from './routes/v1/payment-links.get.ts';
import { listPaymentLinksRoute } from './routes/v1/payment-links.list.ts';
import { updatePaymentLinkRoute } from './routes/v1/payment-links.update.ts';
import { listPaymentMethodsRoute } from './routes/v1/payment-methods.list.ts';
import { confirmPaymentOrderRoute } from './routes/v1/payment-orders.confirm.ts';
import { getPaymentOrderRoute } from './routes/v1/payment-orders.get.ts';
import { listPaymentOrdersRoute } from './routes/v1/payment-orders.list.ts';
import { refundPaymentOrderRoute } from './routes/v1/payment-orders.refund.ts';
import { recurrentPaymentRoutes } from './routes/v1/recurrent-payments.ts';
import { subscriptionTestHelperRoutes } from './routes/v1/test-helpers.subscriptions.ts';
import { testHelperRoutes } from './routes/v1/test-helpers.ts';
import { webhookEndpointRoutes } from './routes/v1/webhook-endpoints.ts';
import { ErrorBody } from './schemas/common.ts';

export type AppOptions = {
  logger: Logger;
  bodyLimitBytes: number;
  rateLimitPerSecond: number;
  authFailuresPerMinute: number;
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

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
// NUL and unpaired surrogates: PostgreSQL refuses them and SQLite would store them mangled,
// so they are refused at the door, where the answer is the same on every backend.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point of this pattern
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Valid UTF-8 decodes to no lone surrogate, and JSON refuses a raw NUL, so such characters can
// only come from \u escapes: a body without one is parsed without the (slower) per-value check.
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

type ParsedBody = { ok: true; text: string; value: unknown } | { ok: false; message: string };

/** Strict JSON body parsing: valid UTF-8, no prototype-polluting keys, no unstorable characters. */
export function parseJsonBody(body: Buffer): ParsedBody {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { ok: false, message: 'request body must be valid UTF-8' };
  }
  if (text.trim() === '') {
    return { ok: true, text: '', value: undefined };
  }
  let unstorable = false;
  let value: unknown;
  try {
    value = sjson.parse(
      text,
      !UNSTORABLE_ESCAPE.test(text)
        ? null
        : (key: string, v: unknown) => {
            if (UNSTORABLE.test(key) || (typeof v === 'string' && UNSTORABLE.test(v))) {
              unstorable = true;
            }
            return v;
          },
      { protoAction: 'error', constructorAction: 'error' },
    );
  } catch (error) {
    // secure-json-parse reports poisoning as a SyntaxError too; its message tells the two apart.
    const forbidden = /prototype|constructor/i.test((error as Error).message);
    return {
      ok: false,
      message: forbidden
        ? 'request body must not contain __proto__ or constructor.prototype members'
        : 'request body is not valid JSON',
    };
  }
  if (unstorable) {
    return { ok: false, message: 'request body must not contain NUL characters or unpaired UTF-16 surrogates' };
  }
  return { ok: true, text, value };
}

/** Builds the HTTP application; never listens (main.ts and tests decide how it is served). */
export async function buildApp(deps: RouteDeps, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    // One cheap line per request is written below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimitBytes,
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
    // The path only: credentials someone put in a query string must never reach the logs.
    // reqId comes from the request's child logger; whole microseconds keep the line short.
    const url = req.url;
    const query = url.indexOf('?');
    req.log.info(
      {
        method: req.method,
        path: query === -1 ? url : url.slice(0, query),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 1000) / 1000,
      },
      'request',
    );
    metrics.observe(req, reply);
    done();
  });

  // 2. Bodies: JSON only, parsed safely; an empty body (GET/DELETE sent with a JSON content type) is no body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'buffer', bodyLimit: options.bodyLimitBytes },
    (req, body, done) => {
      const parsed = parseJsonBody(body as Buffer);
      if (parsed.ok) {
        req.rawBody = parsed.text;
        done(null, parsed.value);
      } else {
        done(new AppError('WRONG_INPUT', [parsed.message]), undefined);
      }
    },
  );
  app.addContentTypeParser('*', (req, _payload, done) => {
    const length = Number(req.headers['content-length'] ?? '0');
    if (length === 0 && req.headers['transfer-encoding'] === undefined) {
      done(null, undefined);
      return;
    }
    done(
      new AppError('UNSUPPORTED_MEDIA_TYPE', ['request body must be JSON sent as Content-Type: application/json']),
      undefined,
    );
  });

  // A POST without a body is an empty object: optional-body operations (refunds, test helpers)
  // then validate normally, and required members are reported by name instead of "body must be an object".
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.method === 'POST' && req.body === undefined) {
      req.body = {};
    }
    done();
  });

  registerErrorHandlers(app);

  // 3. OpenAPI from the route schemas.
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cobro API',
        version: '1.0.0',
        description:
          'The ONE.lat (OneInfinite) v1 checkout API, self-hosted. Every /v1 request carries x-api-key and x-api-secret.',
      },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          apiSecret: { type: 'apiKey', in: 'header', name: 'x-api-secret' },
        },
      },
      security: [{ apiKey: [], apiSecret: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  // 4. Operations endpoints, outside /v1 and without credentials.
  app.get('/health', { schema: { hide: true } }, async (_req, reply) => sendJson(reply, 200, { status: 'ok' }));
  app.get('/ready', { schema: { hide: true } }, async (req, reply) => {
    try {
      await options.ping();
      // A chain source that fails holds up only its own orders: it is reported, never a 503.
      const chains = options.chains?.() ?? {};
      return sendJson(
        reply,
        200,
        Object.keys(chains).length === 0
          ? { status: 'ready' }
          : {
              status: 'ready',
              chains: Object.fromEntries(
                Object.entries(chains).map(([network, c]) => [
                  network,
                  {
                    ok: c.lastError === null,
                    tip_height: c.tipHeight,
                    ...(c.lagBlocks === null ? {} : { scan_lag_blocks: c.lagBlocks }),
                    errors: c.errors,
                    last_error: c.lastError,
                  },
                ]),
              ),
            },
      );
    } catch (error) {
      req.log.error({ err: error }, 'database not reachable');
      return sendError(reply, new AppError('SERVICE_UNAVAILABLE', ['the database is not reachable']));
    }
  });
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) =>
    reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  app.get('/openapi.json', { schema: { hide: true } }, async (_req, reply) => sendJson(reply, 200, app.swagger()));

  await app.register(checkoutPages, deps);
  await app.register(mailboxPages, { ...deps, smtpConfigured: options.smtpConfigured ?? false });
  await app.register(subscriptionPages, deps);
  await app.register(planLinkPages, {
    paymentLinks: deps.paymentLinks,
    preferences: deps.preferences,
    publicUrl: deps.publicUrl,
    signer: deps.signer,
  });
  await app.register(dashboardPages, deps);

  // 5. The merchant API: authenticated, rate limited per key, idempotent POSTs.
  await app.register(async (v1) => {
    registerAuth(v1, deps.merchants, new AuthFailureLimiter(options.authFailuresPerMinute));
    await v1.register(rateLimit, {
      global: true,
      max: options.rateLimitPerSecond,
      timeWindow: 1000,
      hook: 'preParsing',
      keyGenerator: (req) => req.caller?.key ?? req.ip,
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
      addHeaders: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
        'retry-after': true,
      },
      errorResponseBuilder: () =>
        new AppError('TOO_MANY_REQUESTS', [
          'rate limit exceeded for this API key; retry after the Retry-After seconds',
        ]),
    });
    registerIdempotency(v1, deps.idempotency);

    await v1.register(createCheckoutPreferenceRoute, deps);
    await v1.register(getCheckoutPreferenceRoute, deps);
    await v1.register(listCheckoutPreferencesRoute, deps);
    await v1.register(createPaymentLinkRoute, deps);
    await v1.register(getPaymentLinkRoute, deps);
    await v1.register(listPaymentLinksRoute, deps);
    await v1.register(archivePaymentLinkRoute, deps);
    await v1.register(updatePaymentLinkRoute, deps);
    await v1.register(listPaymentMethodsRoute, deps);
    await v1.register(listCurrenciesRoute, deps);
    await v1.register(getPaymentOrderRoute, deps);
    await v1.register(listPaymentOrdersRoute, deps);
    await v1.register(refundPaymentOrderRoute, deps);
    await v1.register(confirmPaymentOrderRoute, deps);
    await v1.register(testHelperRoutes, deps);
    await v1.register(subscriptionTestHelperRoutes, deps);
    await v1.register(webhookEndpointRoutes, deps);
    await v1.register(eventRoutes, deps);
    await v1.register(recurrentPaymentRoutes, deps);
  });

  return app;
}
