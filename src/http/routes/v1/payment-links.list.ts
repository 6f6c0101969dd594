import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
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
import { PaymentLinkResponse, toPaymentLinkResponse } from '../../schemas/payment-link.ts';

export const listPaymentLinksRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { paymentLinks, currencies, publicUrl },
) => {
  app.get(
    '/v1/payment_links',
    {
      schema: {
        operationId: 'listPaymentLinks',
        tags: ['payment_links'],
        summary: 'List subscription definitions, newest first',
        querystring: Type.Object({ ...PageQuery, status: Type.Optional(StringEnum(['ACTIVE', 'ARCHIVED'] as const)) }),
        response: { 200: pageSchema(PaymentLinkResponse), ...errorResponses },
      },
    },
    async (req, reply) => {
      const page = await paymentLinks.list(
        req.caller,
        parsePageQuery(req.query),
        req.query.status ? { status: req.query.status } : {},
      );
      return sendJson(
        reply,
        200,
        toPageResponse(page, (l) => toPaymentLinkResponse(l, currencies, publicUrl)),
      );
    },
  );
};
