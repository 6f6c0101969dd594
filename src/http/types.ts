import type { Caller } from '../domain/merchants/merchant.ts';
import type { Repositories } from '../domain/repositories/repositories.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated merchant and mode; set by the auth plugin on every /v1 route. */
    caller: Caller;
    /** The body exactly as received (JSON requests only), for idempotency fingerprints. */
    rawBody?: string;
    /** Present while this POST holds an Idempotency-Key. */
    idempotency?: {
      complete(repos: Repositories, status: number, body: string): Promise<void>;
      /** Records the object this request started, in the transaction that creates it (a recovery point). */
      link(repos: Repositories, resourceId: string): Promise<void>;
      /** Set when an earlier attempt died after starting this object: answer from it, start nothing. */
      resumeFrom: string | null;
    };
  }
}
