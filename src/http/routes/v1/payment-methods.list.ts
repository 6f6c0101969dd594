import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PAYMENT_METHOD_TYPES } from '../../../domain/payment-methods/payment-method.ts';
import { AppError } from '../../../domain/shared/errors.ts';
import type { Services } from '../../../services.ts';
import { etagOf, sendCachedJson } from '../../plugins/etag.ts';
import { errorResponses, StringEnum } from '../../schemas/common.ts';
import { PaymentMethodResponse, toPaymentMethodResponse } from '../../schemas/payment-method.ts';

/** Distinct (mode, query) answers kept at most. */
const MAX_KEPT_ANSWERS = 1_000;

export const listPaymentMethodsRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { paymentMethods, currencies },
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
      // The same bytes for every caller of a mode asking the same question, until the catalogue
      // changes: kept serialized, with an ETag so clients can ask "changed?" for nothing.
      const version = await paymentMethods.version();
      const key = `${req.caller.mode}?${req.url.slice(req.url.indexOf('?') + 1)}`;
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
      // A live key sees what this server can take live: a network nobody watches is DISABLED.
      const seen = paymentMethods.asSeenIn(req.caller.mode, methods);
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
