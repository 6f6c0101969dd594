import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import sjson from 'secure-json-parse';
import { Type } from 'typebox';
import { AppError } from '../../../domain/shared/errors.ts';
import type { Services } from '../../../services.ts';
import { sendJson } from '../../plugins/errors.ts';

/** A PSP's notification lists a few Pix; a body past this is not one. */
export const PIX_NOTIFICATION_MAX_BYTES = 256 * 1024;

/**
 * Where a merchant's PSP notifies Pix received (INTERFACE §11.2): `POST {webhookUrl}/pix` as the
 * specification has it, and `POST {webhookUrl}` itself (Efí tests the URL as registered; Banco
 * Inter notifies it), the body `{"pix": [...]}` or a bare array. A notification only makes Cobro
 * ask the PSP about the charges it names (GET /cob/{txid}); nothing in it is believed. Answered
 * 200 once those checks are done, whatever they found (an unknown txid, a charge not paid: nothing
 * changes); 400 for a body that is not JSON; 404 for a URL no API Pix connection has; 413 past
 * the size cap. By the Central Bank's rules the PSP presents a client certificate here: that
 * mutual TLS is the reverse proxy's to terminate (docs/connectors/pix.md).
 */
export const pixWebhookRoute: FastifyPluginAsyncTypebox<Services> = async (app, { connectors }) => {
  // This scope only: every body as bytes, whatever its media type says (PSPs differ).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PIX_NOTIFICATION_MAX_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  const params = Type.Object({ webhookId: Type.String({ pattern: '^[A-Za-z0-9]{1,64}$' }) });
  const options = { bodyLimit: PIX_NOTIFICATION_MAX_BYTES, schema: { hide: true, params } };
  const receive = async (webhookId: string, raw: unknown) => {
    let body: unknown;
    try {
      body = sjson.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : '', undefined, {
        protoAction: 'remove',
        constructorAction: 'remove',
      });
    } catch {
      throw new AppError('WRONG_INPUT', ['body: a notification is JSON ({"pix": [...]} or an array of Pix)']);
    }
    return connectors.pix.notify(webhookId, body);
  };
  app.post('/connectors/pix/webhooks/:webhookId', options, async (req, reply) => {
    const result = await receive(req.params.webhookId, req.body);
    return sendJson(reply, 200, { received: true, checked: result.checked });
  });
  app.post('/connectors/pix/webhooks/:webhookId/pix', options, async (req, reply) => {
    const result = await receive(req.params.webhookId, req.body);
    return sendJson(reply, 200, { received: true, checked: result.checked });
  });
};
