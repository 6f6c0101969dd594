import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { IdempotencyHeaders, writeErrorResponses } from '../../schemas/common.ts';
import { CreatePaymentLinkBody, PaymentLinkResponse, toPaymentLinkResponse } from '../../schemas/payment-link.ts';

export const createPaymentLinkRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { paymentLinks, currencies, publicUrl },
) => {
  app.post(
    '/v1/payment_links',
    {
      schema: {
        operationId: 'createPaymentLink',
        tags: ['payment_links'],
        summary: 'Create a subscription definition (the payment_link_id of SUBSCRIPTION preferences)',
        headers: IdempotencyHeaders,
        body: CreatePaymentLinkBody,
        response: { 201: PaymentLinkResponse, ...writeErrorResponses },
      },
    },
    async (req, reply) => {
      const b = req.body;
      let body = '';
      await paymentLinks.create(
        req.caller,
        {
          title: b.title,
          amount: b.amount,
          currency: b.currency,
          intervalType: b.interval_type,
          intervalCount: b.interval_count ?? null,
          trialIntervalType: b.trial_interval_type ?? null,
          trialIntervalCount: b.trial_interval_count ?? null,
          signupFeeAmount: b.signup_fee_amount ?? null,
          externalId: b.external_id ?? null,
        },
        async (repos, created) => {
          body = JSON.stringify(toPaymentLinkResponse(created, currencies, publicUrl));
          await req.idempotency?.complete(repos, 201, body);
        },
      );
      return sendJson(reply, 201, body);
    },
  );
};
