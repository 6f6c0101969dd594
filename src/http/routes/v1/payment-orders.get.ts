import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { errorResponses } from '../../schemas/common.ts';
import { PaymentOrderResponse, toPaymentOrderResponse } from '../../schemas/payment-order.ts';

export const getPaymentOrderRoute: FastifyPluginAsyncTypebox<Services> = async (app, { orders, currencies }) => {
  app.get(
    '/v1/payment_orders/:id',
    {
      schema: {
        operationId: 'getPaymentOrder',
        tags: ['payment_orders'],
        summary: 'Get a payment order (exactly 200 when found)',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: PaymentOrderResponse, ...errorResponses },
      },
    },
    async (req, reply) =>
      sendJson(reply, 200, toPaymentOrderResponse(await orders.get(req.caller, req.params.id), currencies)),
  );
};
