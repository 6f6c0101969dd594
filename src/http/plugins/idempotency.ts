import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IdempotencyService } from '../../domain/idempotency/idempotency.service.ts';
import { AppError } from '../../domain/shared/errors.ts';

/**
 * `Idempotency-Key` on POST: the first answer for (merchant, mode, key) is stored in the same
 * transaction as the object it created and replayed byte for byte to every retry; a different
 * body under the same key is 422, a retry while the first is running is 409. Answers that are
 * errors are not stored (the key is released), so a corrected retry runs normally.
 */
export function registerIdempotency(app: FastifyInstance, idempotency: IdempotencyService): void {
  app.decorateRequest('idempotency', undefined);
  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST') {
      return;
    }
    const raw = req.headers['idempotency-key'];
    if (raw === undefined) {
      return;
    }
    if (typeof raw !== 'string') {
      throw new AppError('WRONG_INPUT', ['Idempotency-Key must be sent once']);
    }
    idempotency.validateKey(raw);
    const caller = req.caller;
    const hash = createHash('sha256')
      .update(`${req.method} ${req.url}\n`)
      .update(req.rawBody ?? '')
      .digest('base64url');
    const decision = await idempotency.begin(caller, raw, hash);
    if (decision.kind === 'replay') {
      reply
        .code(decision.status)
        .header('content-type', 'application/json; charset=utf-8')
        .header('idempotent-replayed', 'true');
      return reply.send(decision.body);
    }
    req.idempotency = {
      complete: (repos, status, body) => idempotency.complete(repos, caller, raw, status, body),
    };
    reply.header('idempotent-replayed', 'false');
    // Any answer other than the stored success frees the key for a corrected retry.
    reply.raw.once('finish', () => {
      if (reply.statusCode >= 300) {
        idempotency.release(caller, raw, hash).catch((error: unknown) => {
          req.log.error({ err: error }, 'could not release idempotency key');
        });
      }
    });
  });
}
