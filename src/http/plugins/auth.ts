import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MerchantService } from '../../domain/merchants/merchant.service.ts';
import { unauthorized } from '../../domain/merchants/merchant.service.ts';
import { AppError } from '../../domain/shared/errors.ts';

/**
 * Counts failed authentications per client address in fixed one-minute windows, so a
 * guessing client is cut off (429) while other clients are unaffected.
 */
export class AuthFailureLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly perMinute: number) {}

  isBlocked(address: string, now: number): number | null {
    const w = this.windows.get(address);
    if (!w || now - w.start >= 60_000 || w.count < this.perMinute) {
      return null;
    }
    return Math.max(1, Math.ceil((w.start + 60_000 - now) / 1000));
  }

  recordFailure(address: string, now: number): void {
    const w = this.windows.get(address);
    if (!w || now - w.start >= 60_000) {
      // Bound the map: an attacker rotating addresses must not grow it without limit.
      if (this.windows.size > 100_000) {
        this.windows.clear();
      }
      this.windows.set(address, { start: now, count: 1 });
    } else {
      w.count++;
    }
  }
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Resolves `x-api-key` / `x-api-secret` (header names in any case) before the body is even read. */
export function registerAuth(app: FastifyInstance, merchants: MerchantService, limiter: AuthFailureLimiter): void {
  app.decorateRequest('caller', null as unknown as FastifyRequest['caller']);
  app.addHook('onRequest', async (req) => {
    const now = Date.now();
    const retryAfter = limiter.isBlocked(req.ip, now);
    if (retryAfter !== null) {
      throw new AppError('TOO_MANY_REQUESTS', ['too many failed authentications from this address; retry later'], {
        'retry-after': String(retryAfter),
      });
    }
    const key = header(req, 'x-api-key');
    const secret = header(req, 'x-api-secret');
    if (key === undefined || secret === undefined) {
      limiter.recordFailure(req.ip, now);
      throw unauthorized();
    }
    try {
      req.caller = await merchants.authenticate(key, secret);
    } catch (error) {
      // Only a refused credential counts: a database that cannot be reached is not a guess, and
      // counting it would lock every client out for a minute after the database comes back.
      if (error instanceof AppError && error.code === 'UNAUTHORIZED') {
        limiter.recordFailure(req.ip, now);
      }
      throw error;
    }
  });
}
