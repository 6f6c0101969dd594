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
  /**
   * The object a multi-step request started (a payment order), recorded in the transaction that
   * created it: the recovery point a retry resumes from if the request's process died.
   */
  resourceId: string | null;
};

export interface IdempotencyRepository {
  /** Inserts unless a row for the key exists; true when inserted. */
  tryInsert(record: IdempotencyRecord): Promise<boolean>;
  get(merchantId: string, mode: Mode, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Replaces a stale row (expired, or in flight with a lapsed lock and no recovery point) with
   * `record`; true when replaced.
   */
  replaceStale(record: IdempotencyRecord, now: number): Promise<boolean>;
  /** Takes over an in-flight row with a lapsed lock and a recovery point: locks it until `lockedUntil`; true when taken. */
  takeOverRecoverable(merchantId: string, mode: Mode, key: string, now: number, lockedUntil: number): Promise<boolean>;
  /** Records the recovery point of an in-flight key. */
  link(merchantId: string, mode: Mode, key: string, resourceId: string): Promise<void>;
  /** Lapses the lock of every in-flight key (only when no other process can be running one). */
  lapseAllLocks(): Promise<number>;
  complete(merchantId: string, mode: Mode, key: string, status: number, body: string, expiresAt: number): Promise<void>;
  /** Forgets an in-flight key whose request did not produce a stored answer (validation failure, crash path). */
  release(merchantId: string, mode: Mode, key: string, requestHash: string): Promise<void>;
  deleteExpired(now: number, limit: number): Promise<number>;
}
