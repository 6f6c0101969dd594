import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { IdempotencyHeaders, writeErrorResponses } from '../../schemas/common.ts';
import { PaymentOrderResponse, toPaymentOrderResponse } from '../../schemas/payment-order.ts';

export const confirmPaymentOrderRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { orderMoves, currencies },
) => {
  app.post(
    '/v1/payment_orders/:id/confirm',
    {
      schema: {
        operationId: 'confirmPaymentOrder',
        tags: ['payment_orders'],
        summary: 'Confirm a bank transfer the merchant saw arrive in its own account (OPENED → CLOSED)',
        headers: IdempotencyHeaders,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: PaymentOrderResponse, ...writeErrorResponses },
      },
    },
    async (req, reply) =>
      sendJson(
        reply,
        200,
        toPaymentOrderResponse(await orderMoves.confirmByMerchant(req.caller, req.params.id), currencies),
      ),
  );
};
