import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { CheckoutPreferenceResponse, toCheckoutPreferenceResponse } from '../../schemas/checkout-preference.ts';
import { errorResponses } from '../../schemas/common.ts';

export const getCheckoutPreferenceRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { preferences, currencies },
) => {
  app.get(
    '/v1/checkout_preferences/:id',
    {
      schema: {
        operationId: 'getCheckoutPreference',
        tags: ['checkout_preferences'],
        summary: 'Get a checkout preference',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: CheckoutPreferenceResponse, ...errorResponses },
      },
    },
    async (req, reply) => {
      const pref = await preferences.get(req.caller, req.params.id);
      return sendJson(reply, 200, toCheckoutPreferenceResponse(pref, currencies, preferences.checkoutUrl(pref.id)));
    },
  );
};
