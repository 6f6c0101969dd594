import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { ChainSourceStatus } from '../domain/payment-methods/payment-provider.ts';
import { AppError } from '../domain/shared/errors.ts';
import type { Services } from '../services.ts';
import { operationSchemaNames } from './openapi-names.ts';
import { AuthFailureLimiter, registerAuth } from './plugins/auth.ts';
import { sendError, sendJson } from './plugins/errors.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { pixWebhookRoute } from './routes/connectors/pix.webhooks.ts';
import { stripeWebhookRoute } from './routes/connectors/stripe.webhooks.ts';
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

const webhookHeader = (name: string, description: string) => ({
  name,
  in: 'header' as const,
  required: true,
  schema: { type: 'string' as const },
  description,
});

/** What Cobro sends to a webhook URL (docs/webhooks.md): the OpenAPI 3.1 `webhooks` section. */
const webhookRequest = {
  post: {
    operationId: 'receiveEvent',
    summary: 'A status change, POSTed to status_changes_webhook and to the subscribed webhook endpoints',
    description:
      'Signed as Standard Webhooks: verify the raw body with the whsec_ secret, reject a timestamp more than 5 minutes away, de-duplicate on webhook-id. Delivered at least once; order is not promised (use sequence).',
    parameters: [
      webhookHeader('webhook-id', 'The event id (the body id), the same on every retry'),
      webhookHeader('webhook-timestamp', 'Seconds since the epoch of this attempt'),
      webhookHeader(
        'webhook-signature',
        'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">; two space-separated values while a secret rotates',
      ),
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CobroEvent' } } },
    },
    responses: {
      '2XX': { description: 'Any 2xx within 15 seconds is a delivery; anything else is retried for about 3 days' },
    },
  },
};

export type ApiOptions = {
  publicUrl: string;
  rateLimitPerSecond: number;
  authFailuresPerMinute: number;
  /** Reports whether the database answers (GET /ready). */
  ping: () => Promise<void>;
  /** Live mode's chain sources, by network (GET /ready's detail). */
  chains?: () => Record<string, ChainSourceStatus>;
  /** The metrics the server keeps (GET /metrics). */
  metrics: Registry;
};

/**
 * The JSON API: the operations endpoints (/health, /ready, /metrics), its OpenAPI description
 * (/openapi.json, /docs) and the merchant API under /v1, one line per operation.
 */
export async function registerApi(app: FastifyInstance, services: Services, options: ApiOptions): Promise<void> {
  // OpenAPI from the route schemas.
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
      webhooks: { event: webhookRequest },
    },
    ...operationSchemaNames(),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  // Operations endpoints, outside /v1 and without credentials.
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
                    ...(c.tokens === undefined ? {} : { tokens: c.tokens }),
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
    reply.header('content-type', options.metrics.contentType).send(await options.metrics.metrics()),
  );
  await app.register(stripeWebhookRoute, services);
  await app.register(pixWebhookRoute, services);
  app.get('/openapi.json', { schema: { hide: true } }, async (_req, reply) => sendJson(reply, 200, app.swagger()));

  // The merchant API: authenticated, rate limited per key, idempotent POSTs.
  await app.register(async (v1) => {
    registerAuth(v1, services.merchants, new AuthFailureLimiter(options.authFailuresPerMinute));
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
    registerIdempotency(v1, services.idempotency);

    await v1.register(createCheckoutPreferenceRoute, services);
    await v1.register(getCheckoutPreferenceRoute, services);
    await v1.register(listCheckoutPreferencesRoute, services);
    await v1.register(createPaymentLinkRoute, services);
    await v1.register(getPaymentLinkRoute, services);
    await v1.register(listPaymentLinksRoute, services);
    await v1.register(archivePaymentLinkRoute, services);
    await v1.register(updatePaymentLinkRoute, services);
    await v1.register(listPaymentMethodsRoute, services);
    await v1.register(listCurrenciesRoute, services);
    await v1.register(getPaymentOrderRoute, services);
    await v1.register(listPaymentOrdersRoute, services);
    await v1.register(refundPaymentOrderRoute, services);
    await v1.register(confirmPaymentOrderRoute, services);
    await v1.register(testHelperRoutes, services);
    await v1.register(subscriptionTestHelperRoutes, services);
    await v1.register(webhookEndpointRoutes, services);
    await v1.register(eventRoutes, services);
    await v1.register(recurrentPaymentRoutes, services);
  });
}
