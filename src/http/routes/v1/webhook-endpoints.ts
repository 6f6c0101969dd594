import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { toWireTime } from '../../../domain/shared/clock.ts';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import {
  errorResponses,
  IdempotencyHeaders,
  Nullable,
  PageQuery,
  pageSchema,
  parsePageQuery,
  toPageResponse,
  writeErrorResponses,
} from '../../schemas/common.ts';
import { toWebhookEndpointResponse, WebhookEndpointResponse } from '../../schemas/webhook.ts';

const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });
const EventTypes = Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 50 });
const SecretAnswer = Type.Object(
  {
    secret: Type.String(),
    previous_secret_expires_at: Nullable(Type.String({ description: 'Until then the old secret signs too' })),
  },
  { $id: 'RotatedSecret' },
);

/** Account-level webhook endpoints (INTERFACE.md §6): each gets every event, or the types it lists. */
export const webhookEndpointRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { webhooks }) => {
  app.post(
    '/v1/webhook_endpoints',
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        tags: ['webhooks'],
        summary: 'Create a webhook endpoint; its whsec_ secret is shown in this answer only',
        headers: IdempotencyHeaders,
        body: Type.Object({
          url: Type.String({ minLength: 1, maxLength: 2048 }),
          event_types: Type.Optional(Nullable(EventTypes)),
          description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
        }),
        response: {
          201: Type.Intersect([WebhookEndpointResponse, Type.Object({ secret: Type.String() })], {
            $id: 'WebhookEndpointWithSecret',
          }),
          ...writeErrorResponses,
        },
      },
    },
    async (req, reply) => {
      let body = '';
      await webhooks.endpoints.createEndpoint(
        req.caller,
        { url: req.body.url, eventTypes: req.body.event_types ?? null, description: req.body.description ?? null },
        async (repos, created) => {
          body = JSON.stringify({ ...toWebhookEndpointResponse(created.endpoint), secret: created.secret });
          await req.idempotency?.complete(repos, 201, body);
        },
      );
      return sendJson(reply, 201, body);
    },
  );

  app.get(
    '/v1/webhook_endpoints',
    {
      schema: {
        operationId: 'listWebhookEndpoints',
        tags: ['webhooks'],
        querystring: Type.Object(PageQuery),
        response: { 200: pageSchema(WebhookEndpointResponse), ...errorResponses },
      },
    },
    async (req, reply) =>
      sendJson(
        reply,
        200,
        toPageResponse(
          await webhooks.endpoints.listEndpoints(req.caller, parsePageQuery(req.query)),
          toWebhookEndpointResponse,
        ),
      ),
  );

  app.get(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        operationId: 'getWebhookEndpoint',
        tags: ['webhooks'],
        params: Id,
        response: { 200: WebhookEndpointResponse, ...errorResponses },
      },
    },
    async (req, reply) =>
      sendJson(reply, 200, toWebhookEndpointResponse(await webhooks.endpoints.getEndpoint(req.caller, req.params.id))),
  );

  const UpdateBody = Type.Object({
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    event_types: Type.Optional(Nullable(EventTypes)),
    enabled: Type.Optional(Type.Boolean()),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  });
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/v1/webhook_endpoints/:id',
      schema: {
        operationId: method === 'POST' ? 'updateWebhookEndpoint' : 'patchWebhookEndpoint',
        tags: ['webhooks'],
        summary: 'Update the URL, the event types or whether the endpoint is enabled',
        params: Id,
        body: UpdateBody,
        response: { 200: WebhookEndpointResponse, ...writeErrorResponses },
      },
      handler: async (req, reply) => {
        const b = req.body;
        const updated = await webhooks.endpoints.updateEndpoint(req.caller, req.params.id, {
          ...(b.url !== undefined ? { url: b.url } : {}),
          ...(b.event_types !== undefined ? { eventTypes: b.event_types } : {}),
          ...(b.enabled !== undefined ? { enabled: b.enabled } : {}),
          ...(b.description !== undefined ? { description: b.description } : {}),
        });
        return sendJson(reply, 200, toWebhookEndpointResponse(updated));
      },
    });
  }

  app.delete(
    '/v1/webhook_endpoints/:id',
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags: ['webhooks'],
        params: Id,
        response: { 200: Type.Object({ id: Type.String(), deleted: Type.Boolean() }), ...writeErrorResponses },
      },
    },
    async (req, reply) => {
      const deleted = await webhooks.endpoints.deleteEndpoint(req.caller, req.params.id);
      return sendJson(reply, 200, { id: deleted.id, deleted: true });
    },
  );

  app.post(
    '/v1/webhook_endpoints/:id/rotate_secret',
    {
      schema: {
        operationId: 'rotateWebhookEndpointSecret',
        tags: ['webhooks'],
        summary: 'New signing secret; the old one keeps signing too until previous_secret_expires_at',
        params: Id,
        response: { 200: SecretAnswer, ...writeErrorResponses },
      },
    },
    async (req, reply) => {
      const rotated = await webhooks.endpoints.rotateEndpointSecret(req.caller, req.params.id);
      return sendJson(reply, 200, {
        secret: rotated.secret,
        previous_secret_expires_at: toWireTime(rotated.previousExpiresAt),
      });
    },
  );

  app.get(
    '/v1/webhook_settings',
    {
      schema: {
        operationId: 'getWebhookSettings',
        tags: ['webhooks'],
        summary: 'The secret that signs deliveries to status_changes_webhook URLs',
        response: { 200: Type.Object({ signing_secret: Type.String() }), ...errorResponses },
      },
    },
    async (req, reply) =>
      sendJson(reply, 200, { signing_secret: await webhooks.secrets.merchantSigningSecret(req.caller) }),
  );

  app.post(
    '/v1/webhook_settings/rotate_secret',
    {
      schema: {
        operationId: 'rotateWebhookSettingsSecret',
        tags: ['webhooks'],
        response: { 200: SecretAnswer, ...writeErrorResponses },
      },
    },
    async (req, reply) => {
      const rotated = await webhooks.secrets.rotateMerchantSecret(req.caller);
      return sendJson(reply, 200, {
        secret: rotated.secret,
        previous_secret_expires_at: toWireTime(rotated.previousExpiresAt),
      });
    },
  );
};
