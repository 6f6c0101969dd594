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
