import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PAYMENT_ORDER_STATUSES } from '../../../domain/payment-orders/payment-order.status.ts';
import { parseRfc3339 } from '../../../domain/shared/clock.ts';
import { AppError } from '../../../domain/shared/errors.ts';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import {
  errorResponses,
  PageQuery,
  pageSchema,
  parsePageQuery,
  StringEnum,
  toPageResponse,
} from '../../schemas/common.ts';
import { PaymentOrderResponse, toPaymentOrderResponse } from '../../schemas/payment-order.ts';

function time(name: string, value: string | undefined): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const ms = parseRfc3339(value);
  if (ms === null) {
    throw new AppError('WRONG_INPUT', [`querystring ${name} must be an RFC 3339 timestamp`]);
  }
  return ms;
}

export const listPaymentOrdersRoute: FastifyPluginAsyncTypebox<Services> = async (app, { orders, currencies }) => {
  app.get(
    '/v1/payment_orders',
    {
      schema: {
        operationId: 'listPaymentOrders',
        tags: ['payment_orders'],
        summary: 'List payment orders, newest first',
        querystring: Type.Object({
          ...PageQuery,
          checkout_preference_id: Type.Optional(Type.String({ maxLength: 64 })),
          recurrent_payment_id: Type.Optional(Type.String({ maxLength: 64 })),
          external_id: Type.Optional(Type.String({ maxLength: 255 })),
          status: Type.Optional(StringEnum(PAYMENT_ORDER_STATUSES)),
          created_gte: Type.Optional(Type.String({ maxLength: 64 })),
          created_lt: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: { 200: pageSchema(PaymentOrderResponse), ...errorResponses },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const gte = time('created_gte', q.created_gte);
      const lt = time('created_lt', q.created_lt);
      const page = await orders.list(req.caller, parsePageQuery(q), {
        ...(q.checkout_preference_id !== undefined ? { checkoutPreferenceId: q.checkout_preference_id } : {}),
        ...(q.recurrent_payment_id !== undefined ? { recurrentPaymentId: q.recurrent_payment_id } : {}),
        ...(q.external_id !== undefined ? { externalId: q.external_id } : {}),
        ...(q.status !== undefined ? { status: q.status } : {}),
        ...(gte !== undefined ? { createdGte: gte } : {}),
        ...(lt !== undefined ? { createdLt: lt } : {}),
      });
      return sendJson(
        reply,
        200,
        toPageResponse(page, (o) => toPaymentOrderResponse(o, currencies)),
      );
    },
  );
};
