import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { IdempotencyService } from '../../domain/idempotency/idempotency.service.ts';
import type { Caller } from '../../domain/merchants/merchant.ts';
import { AppError } from '../../domain/shared/errors.ts';

/** A key this request holds (IN_FLIGHT) until its answer is stored or the key is released. */
type Claim = { caller: Caller; key: string; hash: string; stored: boolean; settled: boolean };

/**
 * `Idempotency-Key` on POST: the first answer for (merchant, mode, key) is stored in the same
 * transaction as the object it created and replayed byte for byte to every retry; a different
 * body under the same key is 422, a retry while the first is running is 409. Answers that are
 * errors are not stored (the key is released), so a corrected retry runs normally.
 *
 * Steps: 1. preHandler claims the key (or replays / refuses); 2. the route stores its answer
 * inside its own transaction through `req.idempotency.complete` — or, when it changes state in
 * several transactions (a payment), records the object it started through
 * `req.idempotency.link` in the first one, so that a retry after its process died gets
 * `req.idempotency.resumeFrom` and answers from that object instead of starting over; 3. onSend, before a byte
 * reaches the client, releases the key of an error answer, or stores a success answer that the
 * route did not store itself (operations that are idempotent by nature, such as archive), so a
 * client that retries the moment it has its answer never meets its own stale claim.
 */
export function registerIdempotency(app: FastifyInstance, idempotency: IdempotencyService): void {
  const claims = new WeakMap<FastifyRequest, Claim>();

  const settle = async (req: FastifyRequest, status: number, payload: unknown): Promise<void> => {
    const claim = claims.get(req);
    if (!claim || claim.settled) {
      return;
    }
    claim.settled = true;
    try {
      if (status >= 200 && status < 300) {
        if (!claim.stored && typeof payload === 'string') {
          await idempotency.completeAlone(claim.caller, claim.key, status, payload);
        }
        return;
      }
      // Deletes only an IN_FLIGHT row with this request's fingerprint: a stored answer stays.
      await idempotency.release(claim.caller, claim.key, claim.hash);
    } catch (error) {
      // The claim then lapses with its lock (30 s); the answer itself must still go out.
      req.log.error({ err: error }, 'could not settle idempotency key');
    }
  };

  app.decorateRequest('idempotency', undefined);
  const claimKey: preHandlerAsyncHookHandler = async (req, reply) => {
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
    const claim: Claim = { caller, key: raw, hash, stored: false, settled: false };
    claims.set(req, claim);
    req.idempotency = {
      complete: async (repos, status, body) => {
        await idempotency.complete(repos, caller, raw, status, body);
        claim.stored = true;
      },
      link: (repos, resourceId) => idempotency.link(repos, caller, raw, resourceId),
      resumeFrom: decision.kind === 'resume' ? decision.resourceId : null,
    };
    reply.header('idempotent-replayed', 'false');
    // No release on a dropped connection: the handler may still be creating the object, and
    // freeing its key then would let a retry create a second one. A claim that is never
    // settled (the process died) lapses with its lock.
  };
  const settleAnswer: onSendAsyncHookHandler = async (req, reply, payload) => {
    await settle(req, reply.statusCode, payload);
    return payload;
  };
  // Attached to POST routes only: reads pay nothing for a header they never honour.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) {
      return;
    }
    route.preHandler = [claimKey, ...asList(route.preHandler)];
    route.onSend = [...asList(route.onSend), settleAnswer];
  });
}

function asList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
