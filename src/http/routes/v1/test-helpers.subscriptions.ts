import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { mailboxPageUrl } from '../../../domain/notifications/mailbox-link.ts';
import { toWireTime } from '../../../domain/shared/clock.ts';
import { AppError } from '../../../domain/shared/errors.ts';
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

const forbidden = {
  403: { $ref: 'ErrorBody#', description: 'FORBIDDEN: test helpers need a test-mode key' },
};

const EmailResponse = Type.Object(
  {
    id: Type.String(),
    to: Type.String(),
    subject: Type.String(),
    text: Type.String({ description: 'The plain-text body, exactly as sent or kept' }),
    status: StringEnum(['PENDING', 'SENT', 'KEPT', 'FAILED'] as const, {
      description: 'KEPT: no SMTP_URL is configured, the mail is only shown here; SENT: handed to the SMTP server',
    }),
    attempts: Type.Integer(),
    last_error: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    sent_at: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'TestEmail' },
);

/**
 * Test-mode helpers of subscriptions: the mailbox of what Cobro wrote to payers, and the signed
 * link of a subscription's payer page (the one its e-mails carry).
 */
export const subscriptionTestHelperRoutes: FastifyPluginAsyncTypebox<Services> = async (
  app,
  { mailbox, payerPortal, signer, publicUrl },
) => {
  app.get(
    '/v1/test_helpers/emails',
    {
      schema: {
        operationId: 'testHelperListEmails',
        tags: ['test_helpers'],
        summary: "The test-mode mailbox: mails written to this merchant's payers, newest first",
        description:
          'Renewal notices of push-method subscriptions (PIX, crypto, cash, bank transfer) with the payment page ' +
          'and the signed link to manage the subscription. Kept here whether or not SMTP_URL is configured.',
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: pageSchema(EmailResponse), ...errorResponses, ...forbidden },
      },
    },
    async (req, reply) => {
      const page = await mailbox.list(req.caller, parsePageQuery(req.query));
      return sendJson(
        reply,
        200,
        toPageResponse(page, (m) => ({
          id: m.id,
          to: m.to,
          subject: m.subject,
          text: m.text,
          status: m.status,
          attempts: m.attempts,
          last_error: m.lastError,
          created_at: toWireTime(m.createdAt),
          sent_at: m.sentAt === null ? null : toWireTime(m.sentAt),
        })),
      );
    },
  );

  app.get(
    '/v1/test_helpers/mailbox_link',
    {
      schema: {
        operationId: 'testHelperMailboxLink',
        tags: ['test_helpers'],
        summary: 'The signed address of the test-mode mailbox page (the same mails as GET /v1/test_helpers/emails)',
        response: { 200: Type.Object({ url: Type.String() }), ...errorResponses, ...forbidden },
      },
    },
    async (req, reply) => {
      if (req.caller.mode !== 'test') {
        throw new AppError('FORBIDDEN', ['test helpers can only be used with test-mode keys (ck_test_…)']);
      }
      return sendJson(reply, 200, { url: mailboxPageUrl(publicUrl, signer, req.caller.merchantId) });
    },
  );

  app.get(
    '/v1/test_helpers/recurrent_payments/:id/payer_link',
    {
      schema: {
        operationId: 'testHelperPayerLink',
        tags: ['test_helpers'],
        summary: "The signed link to a subscription's payer page (as in its e-mails)",
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: {
          200: Type.Object({ recurrent_payment_id: Type.String(), url: Type.String() }),
          ...errorResponses,
          ...forbidden,
        },
      },
    },
    async (req, reply) => {
      const { subscription, url } = await payerPortal.payerLink(req.caller, req.params.id);
      return sendJson(reply, 200, { recurrent_payment_id: subscription.id, url });
    },
  );
};
