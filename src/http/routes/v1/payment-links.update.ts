import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { Type } from 'typebox';
import type { UpdatePaymentLinkInput } from '../../../domain/subscriptions/payment-link.service.ts';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { IdempotencyHeaders, writeErrorResponses } from '../../schemas/common.ts';
import { PaymentLinkResponse, toPaymentLinkResponse, UpdatePaymentLinkBody } from '../../schemas/payment-link.ts';

const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** The wire body as the service takes it: a member sent as null stays null (it clears), an absent one stays absent. */
function toInput(b: Static<typeof UpdatePaymentLinkBody>): UpdatePaymentLinkInput {
  return {
    ...(b.title !== undefined ? { title: b.title } : {}),
    ...(b.amount !== undefined ? { amount: b.amount } : {}),
    ...(b.currency !== undefined ? { currency: b.currency } : {}),
    ...(b.interval_type !== undefined ? { intervalType: b.interval_type } : {}),
    ...(b.interval_count !== undefined ? { intervalCount: b.interval_count } : {}),
    ...(b.trial_interval_type !== undefined ? { trialIntervalType: b.trial_interval_type } : {}),
    ...(b.trial_interval_count !== undefined ? { trialIntervalCount: b.trial_interval_count } : {}),
    ...(b.signup_fee_amount !== undefined ? { signupFeeAmount: b.signup_fee_amount } : {}),
  };
}

/**
 * Edits a subscription plan (`POST`, as ONE.lat clients update objects, and `PATCH`): the plan
 * moves to its next `version`; existing subscribers keep the terms they bought.
 */
export const updatePaymentLinkRoute: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { paymentLinks, currencies, publicUrl },
) => {
  const description =
    'Changes the title, amount, interval, trial or sign-up fee of an ACTIVE plan and increments its version. ' +
    'Existing subscriptions keep the terms they were bought on; checkouts created before the edit sell the ' +
    'version they showed; new checkouts sell the new version. An edit that changes nothing keeps the version. ' +
    'ARCHIVED plans answer 409.';
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/v1/payment_links/:id',
      schema: {
        operationId: method === 'POST' ? 'updatePaymentLink' : 'patchPaymentLink',
        tags: ['payment_links'],
        summary: `Edit a subscription plan: a new version (${method})`,
        description,
        ...(method === 'POST' ? { headers: IdempotencyHeaders } : {}),
        params: Params,
        body: UpdatePaymentLinkBody,
        response: { 200: PaymentLinkResponse, ...writeErrorResponses },
      },
      // A PATCH without a body changes nothing, as a POST without one does (app.ts does it for POST).
      preValidation: async (req) => {
        if (req.body === undefined) {
          req.body = {};
        }
      },
      handler: async (req, reply) => {
        let body = '';
        await paymentLinks.update(req.caller, req.params.id, toInput(req.body), async (repos, updated) => {
          body = JSON.stringify(toPaymentLinkResponse(updated, currencies, publicUrl));
          // Stored with the edit: a retried POST replays this answer instead of editing again.
          await req.idempotency?.complete(repos, 200, body);
        });
        return sendJson(reply, 200, body);
      },
    });
  }
};
