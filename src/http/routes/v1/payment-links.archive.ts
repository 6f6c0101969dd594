import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { IdempotencyHeaders, writeErrorResponses } from '../../schemas/common.ts';
import { PaymentLinkResponse, toPaymentLinkResponse } from '../../schemas/payment-link.ts';

export const archivePaymentLinkRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { paymentLinks, currencies, publicUrl },
) => {
  app.post(
    '/v1/payment_links/:id/archive',
    {
      schema: {
        operationId: 'archivePaymentLink',
        tags: ['payment_links'],
        summary: 'Archive a subscription definition: no new subscriptions; existing ones continue',
        headers: IdempotencyHeaders,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: PaymentLinkResponse, ...writeErrorResponses },
      },
    },
    async (req, reply) =>
      sendJson(
        reply,
        200,
        toPaymentLinkResponse(await paymentLinks.archive(req.caller, req.params.id), currencies, publicUrl),
      ),
  );
};
