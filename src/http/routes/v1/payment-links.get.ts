import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { errorResponses } from '../../schemas/common.ts';
import { PaymentLinkResponse, toPaymentLinkResponse } from '../../schemas/payment-link.ts';

export const getPaymentLinkRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { paymentLinks, currencies, publicUrl },
) => {
  app.get(
    '/v1/payment_links/:id',
    {
      schema: {
        operationId: 'getPaymentLink',
        tags: ['payment_links'],
        summary: 'Get a subscription definition',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: PaymentLinkResponse, ...errorResponses },
      },
    },
    async (req, reply) =>
      sendJson(
        reply,
        200,
        toPaymentLinkResponse(await paymentLinks.get(req.caller, req.params.id), currencies, publicUrl),
      ),
  );
};
