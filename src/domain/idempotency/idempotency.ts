import type { Mode } from '../merchants/merchant.ts';

export type IdempotencyState = 'IN_FLIGHT' | 'DONE';

/**
 * The first answer to a (merchant, mode, key), kept so a retry gets the same bytes. While the
 * first request runs the row is IN_FLIGHT with a lock that lapses if its process dies (its work
 * then never committed, because a finished request stores its answer in the same transaction).
 */
export type IdempotencyRecord = {
  merchantId: string;
  mode: Mode;
  key: string;
  requestHash: string;
  state: IdempotencyState;
  responseStatus: number | null;
  responseBody: string | null;
  lockedUntil: number;
  createdAt: number;
  expiresAt: number;
};

export interface IdempotencyRepository {
  /** Inserts unless a row for the key exists; true when inserted. */
  tryInsert(record: IdempotencyRecord): Promise<boolean>;
  get(merchantId: string, mode: Mode, key: string): Promise<IdempotencyRecord | undefined>;
  /** Replaces a stale row (expired, or in flight with a lapsed lock) with `record`; true when replaced. */
  replaceStale(record: IdempotencyRecord, now: number): Promise<boolean>;
  complete(merchantId: string, mode: Mode, key: string, status: number, body: string, expiresAt: number): Promise<void>;
  /** Forgets an in-flight key whose request did not produce a stored answer (validation failure, crash path). */
  release(merchantId: string, mode: Mode, key: string, requestHash: string): Promise<void>;
  deleteExpired(now: number, limit: number): Promise<number>;
}
