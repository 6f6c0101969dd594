import type { Caller } from '../merchants/merchant.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How long a running request holds its key before another process may take it over. */
const IN_FLIGHT_LOCK_MS = 30_000;

export type IdempotencyDecision =
  | { kind: 'proceed' }
  | { kind: 'replay'; status: number; body: string }
  /** The first attempt died after starting `resourceId`: answer from it instead of starting again. */
  | { kind: 'resume'; resourceId: string };

export class IdempotencyService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: (caller: Caller) => Clock,
    private readonly retentionMs: number,
  ) {}

  validateKey(key: string): void {
    if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(key)) {
      throw new AppError('WRONG_INPUT', [
        `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`,
      ]);
    }
  }

  /** Claims the key for this request, or says to replay the stored answer; throws 409/422 otherwise. */
  async begin(caller: Caller, key: string, requestHash: string): Promise<IdempotencyDecision> {
    const now = this.clock(caller).now().getTime();
    const record = {
      merchantId: caller.merchantId,
      mode: caller.mode,
      key,
      requestHash,
      state: 'IN_FLIGHT' as const,
      responseStatus: null,
      responseBody: null,
      lockedUntil: now + IN_FLIGHT_LOCK_MS,
      createdAt: now,
      expiresAt: now + this.retentionMs,
      resourceId: null,
    };
    return this.uow.transaction(async (repos) => {
      if (await repos.idempotency.tryInsert(record)) {
        return { kind: 'proceed' };
      }
      if (await repos.idempotency.replaceStale(record, now)) {
        return { kind: 'proceed' };
      }
      const existing = await repos.idempotency.get(caller.merchantId, caller.mode, key);
      if (!existing) {
        // Deleted between our two statements (expiry sweep): the retry may run.
        return (await repos.idempotency.tryInsert(record)) ? { kind: 'proceed' } : conflict();
      }
      if (existing.requestHash !== requestHash) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', [
          'Idempotency-Key was already used with a different request body; use a new key for a new request',
        ]);
      }
      if (existing.state === 'DONE' && existing.responseStatus !== null && existing.responseBody !== null) {
        return { kind: 'replay', status: existing.responseStatus, body: existing.responseBody };
      }
      if (
        existing.resourceId !== null &&
        (await repos.idempotency.takeOverRecoverable(caller.merchantId, caller.mode, key, now, record.lockedUntil))
      ) {
        return { kind: 'resume', resourceId: existing.resourceId };
      }
      return conflict();
    });
  }

  /** Records the object a multi-step request started, inside the transaction that creates it. */
  async link(repos: Repositories, caller: Caller, key: string, resourceId: string): Promise<void> {
    await repos.idempotency.link(caller.merchantId, caller.mode, key, resourceId);
  }

  /**
   * At the start of the only process that serves a database (SQLite, under its server lock): every
   * in-flight key belongs to a process that is gone, so its retry need not wait out the lock.
   */
  async lapseOrphanedLocks(): Promise<number> {
    return this.uow.transaction((repos) => repos.idempotency.lapseAllLocks());
  }

  /** Stores the answer; called inside the transaction that creates the object, so both commit or neither. */
  async complete(repos: Repositories, caller: Caller, key: string, status: number, body: string): Promise<void> {
    const now = this.clock(caller).now().getTime();
    await repos.idempotency.complete(caller.merchantId, caller.mode, key, status, body, now + this.retentionMs);
  }

  /**
   * Stores the answer of an operation that does not store it in its own transaction (one that is
   * idempotent by nature, such as archiving): a retry then gets these bytes instead of a 409.
   */
  async completeAlone(caller: Caller, key: string, status: number, body: string): Promise<void> {
    await this.uow.transaction((repos) => this.complete(repos, caller, key, status, body));
  }

  async release(caller: Caller, key: string, requestHash: string): Promise<void> {
    await this.uow.transaction((repos) => repos.idempotency.release(caller.merchantId, caller.mode, key, requestHash));
  }

  async sweep(now: number): Promise<number> {
    return this.uow.transaction((repos) => repos.idempotency.deleteExpired(now, 1000));
  }
}

function conflict(): never {
  throw new AppError('CONFLICT', [
    'a request with this Idempotency-Key is still being processed; retry after it completes',
  ]);
}
