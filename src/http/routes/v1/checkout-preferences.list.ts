import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { CheckoutPreferenceResponse, toCheckoutPreferenceResponse } from '../../schemas/checkout-preference.ts';
import {
  errorResponses,
  PageQuery,
  pageSchema,
  parsePageQuery,
  StringEnum,
  toPageResponse,
} from '../../schemas/common.ts';

export const listCheckoutPreferencesRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { preferences, currencies },
) => {
  app.get(
    '/v1/checkout_preferences',
    {
      schema: {
        operationId: 'listCheckoutPreferences',
        tags: ['checkout_preferences'],
        summary: 'List checkout preferences, newest first',
        querystring: Type.Object({
          ...PageQuery,
          status: Type.Optional(StringEnum(['OPEN', 'PAID', 'EXPIRED'] as const)),
          type: Type.Optional(StringEnum(['PAYMENT', 'SUBSCRIPTION'] as const)),
          external_id: Type.Optional(Type.String({ maxLength: 255 })),
        }),
        response: { 200: pageSchema(CheckoutPreferenceResponse), ...errorResponses },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const page = await preferences.list(req.caller, parsePageQuery(q), {
        ...(q.status ? { status: q.status } : {}),
        ...(q.type ? { type: q.type } : {}),
        ...(q.external_id !== undefined ? { externalId: q.external_id } : {}),
      });
      return sendJson(
        reply,
        200,
        toPageResponse(page, (p) => toCheckoutPreferenceResponse(p, currencies, preferences.checkoutUrl(p.id))),
      );
    },
  );
};
