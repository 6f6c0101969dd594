import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { MethodOffer } from '../../../domain/payment-methods/method-availability.ts';
import { asSeenWith } from '../../../domain/payment-methods/method-availability.ts';
import type { PaymentMethod } from '../../../domain/payment-methods/payment-method.ts';
import { PAYMENT_METHOD_TYPES } from '../../../domain/payment-methods/payment-method.ts';
import { AppError } from '../../../domain/shared/errors.ts';
import type { Services } from '../../../services.ts';
import { etagOf, sendCachedJson } from '../../plugins/etag.ts';
import { errorResponses, StringEnum } from '../../schemas/common.ts';
import { PaymentMethodResponse, toPaymentMethodResponse } from '../../schemas/payment-method.ts';

/** Distinct (mode, what can be offered, query) answers kept at most. */
const MAX_KEPT_ANSWERS = 1_000;

export const listPaymentMethodsRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { paymentMethods, availability, currencies },
) => {
  const answers = new Map<string, { version: number; body: string; etag: string }>();
  app.get(
    '/v1/payment_methods',
    {
      schema: {
        operationId: 'listPaymentMethods',
        tags: ['payment_methods'],
        summary: 'Search payment methods',
        querystring: Type.Object({
          type: Type.Optional(StringEnum(PAYMENT_METHOD_TYPES)),
          currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3,5}$' })),
          country_id: Type.Optional(Type.String({ pattern: '^([A-Za-z]{3}|ALL)$' })),
          amount: Type.Optional(
            Type.String({ pattern: '^[0-9]{1,12}(\\.[0-9]{1,18})?$', description: "In the method's currency" }),
          ),
          allow_recurrent_payment: Type.Optional(StringEnum(['true', 'false'] as const)),
        }),
        response: {
          200: Type.Object({ payment_methods: Type.Array(PaymentMethodResponse) }),
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      // The same bytes for every caller who can be offered the same methods and asks the same
      // question, until the catalogue changes: kept serialized, with an ETag so clients can ask
      // "changed?" for nothing. Test keys are offered every enabled method (nothing is read for
      // them); a live key's offer depends on its merchant's settings, so it is part of the key:
      // one merchant's answer is never another's, and a change of settings is seen at once.
      const version = await paymentMethods.version();
      const { merchantId, mode } = req.caller;
      const offer = await availability.offerOf(merchantId, mode);
      const offered = mode === 'test' ? '' : offeredMask(offer, await paymentMethods.all());
      const key = `${mode}:${offered}?${req.url.slice(req.url.indexOf('?') + 1)}`;
      const cached = answers.get(key);
      if (cached && cached.version === version) {
        return sendCachedJson(req, reply, cached.body, cached.etag);
      }
      const q = req.query;
      if (q.currency && !currencies.get(q.currency.toUpperCase())) {
        throw new AppError('WRONG_INPUT', [`querystring currency must be a supported currency, got ${q.currency}`]);
      }
      const methods = await paymentMethods.list({
        ...(q.type ? { type: q.type } : {}),
        ...(q.currency ? { currency: q.currency.toUpperCase() } : {}),
        ...(q.country_id ? { countryId: q.country_id.toUpperCase() } : {}),
        ...(q.amount ? { amount: Number(q.amount) } : {}),
        ...(q.allow_recurrent_payment ? { allowRecurrentPayment: q.allow_recurrent_payment === 'true' } : {}),
      });
      // A live key sees what its merchant cannot offer as DISABLED.
      const seen = asSeenWith(offer, methods);
      const body = JSON.stringify({ payment_methods: seen.map((m) => toPaymentMethodResponse(m, currencies)) });
      if (answers.size >= MAX_KEPT_ANSWERS) {
        // Queries are the caller's to vary: what is kept stays bounded.
        answers.clear();
      }
      const answer = { version, body, etag: etagOf(body) };
      answers.set(key, answer);
      return sendCachedJson(req, reply, answer.body, answer.etag);
    },
  );
};

/** One character per catalogue method, in catalogue order: whether it can be offered. */
function offeredMask(offer: MethodOffer, catalogue: readonly PaymentMethod[]): string {
  let mask = '';
  for (const method of catalogue) {
    mask += offer.whyNot(method) ? '0' : '1';
  }
  return mask;
}
