import type { IdempotencyRecord } from '../idempotency/idempotency.ts';
import type { Mode } from '../merchants/merchant.ts';

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
