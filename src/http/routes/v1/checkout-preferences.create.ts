import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CheckoutPreference } from '../../../domain/checkout-preferences/checkout-preference.ts';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import {
  CheckoutPreferenceResponse,
  CreateCheckoutPreferenceBody,
  toCheckoutPreferenceResponse,
} from '../../schemas/checkout-preference.ts';
import { IdempotencyHeaders, writeErrorResponses } from '../../schemas/common.ts';

export const createCheckoutPreferenceRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { preferences, currencies },
) => {
  app.post(
    '/v1/checkout_preferences',
    {
      schema: {
        operationId: 'createCheckoutPreference',
        tags: ['checkout_preferences'],
        summary: 'Create a checkout preference (one-time PAYMENT or SUBSCRIPTION)',
        headers: IdempotencyHeaders,
        body: CreateCheckoutPreferenceBody,
        response: { 201: CheckoutPreferenceResponse, ...writeErrorResponses },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const answer = (created: CheckoutPreference) =>
        JSON.stringify(toCheckoutPreferenceResponse(created, currencies, preferences.checkoutUrl(created.id)));
      const idempotency = req.idempotency;
      let body = '';
      const created = await preferences.create(
        req.caller,
        {
          type: b.type,
          origin: b.origin,
          amount: b.amount,
          currency: b.currency,
          title: b.title,
          externalId: b.external_id,
          expirationDate: b.expiration_date,
          paymentLinkId: b.payment_link_id,
          payer: b.payer,
          paymentMethodTypes: b.payment_method_types,
          selectedPaymentMethodId: b.selected_payment_method_id,
          customUrls: b.custom_urls,
        },
        // With an Idempotency-Key the answer is stored with the preference, in its transaction;
        // without one the preference is a write of its own (one statement).
        idempotency &&
          (async (repos, made) => {
            body = answer(made);
            await idempotency.complete(repos, 201, body);
          }),
      );
      body ||= answer(created);
      return sendJson(reply, 201, body);
    },
  );
};
