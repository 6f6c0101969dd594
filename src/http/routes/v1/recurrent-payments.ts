import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { RECURRENT_PAYMENT_STATUSES } from '../../../domain/subscriptions/recurrent-payment.status.ts';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import {
  errorResponses,
  PageQuery,
  pageSchema,
  parsePageQuery,
  StringEnum,
  toPageResponse,
  writeErrorResponses,
} from '../../schemas/common.ts';
import { RecurrentPaymentResponse, toRecurrentPaymentResponse } from '../../schemas/recurrent-payment.ts';

const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Recurrent payments (subscription instances): read, list, cancel. */
export const recurrentPaymentRoutes: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { subscriptions, currencies },
) => {
  app.get(
    '/v1/recurrent_payments/:id',
    {
      schema: {
        operationId: 'getRecurrentPayment',
        tags: ['recurrent_payments'],
        summary: 'Get a recurrent payment (exactly 200 when found)',
        params: Id,
        response: { 200: RecurrentPaymentResponse, ...errorResponses },
      },
    },
    async (req, reply) =>
      sendJson(reply, 200, toRecurrentPaymentResponse(await subscriptions.get(req.caller, req.params.id), currencies)),
  );

  app.get(
    '/v1/recurrent_payments',
    {
      schema: {
        operationId: 'listRecurrentPayments',
        tags: ['recurrent_payments'],
        querystring: Type.Object({
          ...PageQuery,
          status: Type.Optional(StringEnum(RECURRENT_PAYMENT_STATUSES)),
          external_id: Type.Optional(Type.String({ maxLength: 255 })),
          payment_link_id: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: { 200: pageSchema(RecurrentPaymentResponse), ...errorResponses },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const page = await subscriptions.list(req.caller, parsePageQuery(q), {
        ...(q.status ? { status: q.status } : {}),
        ...(q.external_id !== undefined ? { externalId: q.external_id } : {}),
        ...(q.payment_link_id !== undefined ? { paymentLinkId: q.payment_link_id } : {}),
      });
      return sendJson(
        reply,
        200,
        toPageResponse(page, (r) => toRecurrentPaymentResponse(r, currencies)),
      );
    },
  );

  app.delete(
    '/v1/recurrent_payments/:id',
    {
      schema: {
        operationId: 'cancelRecurrentPayment',
        tags: ['recurrent_payments'],
        summary: 'Cancel: no further charges; answers 200 with the updated record',
        params: Id,
        querystring: Type.Object({ deleted_by: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: { 200: RecurrentPaymentResponse, ...writeErrorResponses },
      },
    },
    async (req, reply) =>
      sendJson(
        reply,
        200,
        toRecurrentPaymentResponse(
          await subscriptions.cancel(req.caller, req.params.id, req.query.deleted_by ?? null),
          currencies,
        ),
      ),
  );
};
