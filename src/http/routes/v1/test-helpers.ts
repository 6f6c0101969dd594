import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { toWireTime } from '../../../domain/shared/clock.ts';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';
import { Nullable, StringEnum, writeErrorResponses } from '../../schemas/common.ts';
import { PaymentOrderResponse, toPaymentOrderResponse } from '../../schemas/payment-order.ts';

const forbidden = {
  403: { $ref: 'ErrorBody#', description: 'FORBIDDEN: test helpers need a test-mode key' },
};
const OptionalText = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));

/** INTERFACE.md §9: test-mode helpers, driven through the same services as a payer or provider. */
export const testHelperRoutes: FastifyPluginAsyncTypebox<Services> = async (app, { testHelpers, currencies }) => {
  app.post(
    '/v1/test_helpers/checkout_preferences/:id/pay',
    {
      schema: {
        operationId: 'testHelperPay',
        tags: ['test_helpers'],
        summary: 'Pay a checkout preference as a payer would (test mode)',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        body: Type.Object({
          payment_method_id: OptionalText(64),
          outcome: Type.Optional(Nullable(StringEnum(['APPROVED', 'REJECTED', 'PENDING'] as const))),
          payer: Type.Optional(
            Nullable(
              Type.Object({
                email: OptionalText(254),
                name: OptionalText(200),
                first_name: OptionalText(200),
                last_name: OptionalText(200),
                phone: OptionalText(40),
                phone_number: OptionalText(40),
              }),
            ),
          ),
        }),
        response: { 201: PaymentOrderResponse, ...writeErrorResponses, ...forbidden },
      },
    },
    async (req, reply) => {
      const body = req.body;
      const idempotency = req.idempotency;
      const order = idempotency?.resumeFrom
        ? await testHelpers.resumePay(req.caller, idempotency.resumeFrom, body.outcome ?? null)
        : await testHelpers.pay(
            req.caller,
            req.params.id,
            {
              paymentMethodId: body.payment_method_id ?? null,
              outcome: body.outcome ?? null,
              payer: body.payer ?? null,
            },
            idempotency && ((repos, opened) => idempotency.link(repos, opened.id)),
          );
      return sendJson(reply, 201, toPaymentOrderResponse(order, currencies));
    },
  );
  app.post(
    '/v1/test_helpers/payment_orders/:id/confirm',
    {
      schema: {
        operationId: 'testHelperConfirm',
        tags: ['test_helpers'],
        summary: 'The provider confirms an OPENED asynchronous order (test mode)',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: PaymentOrderResponse, ...writeErrorResponses, ...forbidden },
      },
    },
    async (req, reply) =>
      sendJson(reply, 200, toPaymentOrderResponse(await testHelpers.confirm(req.caller, req.params.id), currencies)),
  );
  app.post(
    '/v1/test_helpers/payment_orders/:id/expire',
    {
      schema: {
        operationId: 'testHelperExpire',
        tags: ['test_helpers'],
        summary: 'Expire an OPENED order now (test mode)',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: PaymentOrderResponse, ...writeErrorResponses, ...forbidden },
      },
    },
    async (req, reply) =>
      sendJson(reply, 200, toPaymentOrderResponse(await testHelpers.expire(req.caller, req.params.id), currencies)),
  );
  app.post(
    '/v1/test_helpers/clock/advance',
    {
      schema: {
        operationId: 'testHelperAdvanceClock',
        tags: ['test_helpers'],
        summary: "Move this merchant's test-mode clock forward; what falls due runs",
        body: Type.Object({ seconds: Type.Integer({ minimum: 1 }) }),
        response: { 200: Type.Object({ now: Type.String() }), ...writeErrorResponses, ...forbidden },
      },
    },
    async (req, reply) => {
      const now = await testHelpers.advanceClock(req.caller, req.body.seconds);
      return sendJson(reply, 200, { now: toWireTime(now) });
    },
  );
};
