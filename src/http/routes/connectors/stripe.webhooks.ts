import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';

/** Stripe's events are a few kilobytes; a body past this is not one of them. */
export const STRIPE_EVENT_MAX_BYTES = 256 * 1024;

/**
 * Where a merchant's Stripe account sends its events (INTERFACE §11.1): the URL the connection
 * gave Stripe, unique to the merchant and mode. The body is kept as bytes: the signature is
 * checked on exactly what arrived, before anything parses it. Answered as soon as the event is
 * stored (no call to Stripe here): 200 for an event taken or already seen, or one about an
 * intent Cobro does not know; 400 for a missing, wrong or stale signature, and nothing changes;
 * 404 for a URL no connection has; 413 past the size cap.
 */
export const stripeWebhookRoute: FastifyPluginAsyncTypebox<Services> = async (app, { connectors }) => {
  // This scope only: every body as raw bytes, whatever its media type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: STRIPE_EVENT_MAX_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  app.post(
    '/connectors/stripe/webhooks/:webhookId',
    {
      bodyLimit: STRIPE_EVENT_MAX_BYTES,
      schema: { hide: true, params: Type.Object({ webhookId: Type.String({ pattern: '^[A-Za-z0-9]{1,64}$' }) }) },
    },
    async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.headers['stripe-signature'];
      const received = await connectors.events.receive(
        'stripe',
        req.params.webhookId,
        raw,
        typeof signature === 'string' ? signature : undefined,
      );
      return sendJson(reply, 200, { received: true, duplicate: received.duplicate });
    },
  );
};
