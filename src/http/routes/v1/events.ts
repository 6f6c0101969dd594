import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import {
  errorResponses,
  PageQuery,
  pageSchema,
  parsePageQuery,
  toPageResponse,
  writeErrorResponses,
} from '../../schemas/common.ts';
import { DeliveryList, EventResponse, toDeliveryResponse, toEventResponse } from '../../schemas/webhook.ts';

const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Events (the outbox) and their webhook deliveries, with every attempt. */
export const eventRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { webhooks }) => {
  app.get(
    '/v1/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: ['events'],
        querystring: Type.Object({
          ...PageQuery,
          event_type: Type.Optional(Type.String({ maxLength: 64 })),
          entity_id: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: { 200: pageSchema(EventResponse), ...errorResponses },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const page = await webhooks.events.listEvents(req.caller, parsePageQuery(q), {
        ...(q.event_type ? { eventType: q.event_type } : {}),
        ...(q.entity_id ? { entityId: q.entity_id } : {}),
      });
      return sendJson(reply, 200, toPageResponse(page, toEventResponse));
    },
  );

  app.get(
    '/v1/events/:id',
    {
      schema: {
        operationId: 'getEvent',
        tags: ['events'],
        params: Id,
        response: { 200: EventResponse, ...errorResponses },
      },
    },
    async (req, reply) =>
      sendJson(reply, 200, toEventResponse(await webhooks.events.getEvent(req.caller, req.params.id))),
  );

  app.get(
    '/v1/events/:id/deliveries',
    {
      schema: {
        operationId: 'listEventDeliveries',
        tags: ['events'],
        params: Id,
        response: { 200: DeliveryList, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { deliveries, attempts } = await webhooks.events.deliveries(req.caller, req.params.id);
      return sendJson(reply, 200, { data: deliveries.map((d) => toDeliveryResponse(d, attempts)) });
    },
  );

  app.post(
    '/v1/events/:id/redeliver',
    {
      schema: {
        operationId: 'redeliverEvent',
        tags: ['events'],
        summary: 'One more attempt now for each delivery of the event (same webhook-id)',
        params: Id,
        response: { 202: DeliveryList, ...writeErrorResponses },
      },
    },
    async (req, reply) => {
      const deliveries = await webhooks.events.redeliver(req.caller, req.params.id);
      return sendJson(reply, 202, { data: deliveries.map((d) => toDeliveryResponse(d, [])) });
    },
  );
};
