import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { errorResponses } from '../../schemas/common.ts';
import { CurrencyResponse, toCurrencyResponse } from '../../schemas/payment-method.ts';

export const listCurrenciesRoute: FastifyPluginAsyncTypebox<Services> = async (app, { currencies }) => {
  app.get(
    '/v1/currencies',
    {
      schema: {
        operationId: 'listCurrencies',
        tags: ['currencies'],
        summary: 'Supported currencies and their rates to USD',
        response: { 200: Type.Object({ currencies: Type.Array(CurrencyResponse) }), ...errorResponses },
      },
    },
    async (_req, reply) => sendJson(reply, 200, { currencies: currencies.all().map(toCurrencyResponse) }),
  );
};
