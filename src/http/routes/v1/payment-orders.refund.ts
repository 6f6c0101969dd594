import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../../domain/shared/errors.ts';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { IdempotencyHeaders, Nullable, writeErrorResponses } from '../../schemas/common.ts';
import { PaymentOrderResponse, toPaymentOrderResponse } from '../../schemas/payment-order.ts';

export const refundPaymentOrderRoute: FastifyPluginAsyncTypebox<Services> = async (app, { orderMoves, currencies }) => {
  app.post(
    '/v1/payment_orders/:id/refunds',
    {
      schema: {
        operationId: 'refundPaymentOrder',
        tags: ['payment_orders'],
        summary: 'Refund a CLOSED payment order in full (CLOSED → REFUNDED)',
        headers: IdempotencyHeaders,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        body: Type.Object({
          reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
          amount: Type.Optional(
            Type.Unknown({
              description:
                'Not accepted: refunds are of the whole order. Sent, it is refused (400) rather than ignored, so a partial refund is never made in full',
            }),
          ),
        }),
        response: { 200: PaymentOrderResponse, ...writeErrorResponses },
      },
    },
    async (req, reply) => {
      if (req.body.amount !== undefined) {
        // Unknown members are ignored elsewhere; this one would turn a partial refund into a full one.
        throw new AppError('WRONG_INPUT', [
          'amount: partial refunds are not supported; send no amount to refund the whole order',
        ]);
      }
      return sendJson(
        reply,
        200,
        toPaymentOrderResponse(await orderMoves.refund(req.caller, req.params.id), currencies),
      );
    },
  );
};
