import type { Mode } from '../merchants/merchant.ts';

/** Monotonic per-merchant counters (address indexes, reference numbers). */
export interface CounterRepository {
  /** Returns the next value (starting at 1) and stores it, atomically. */
  next(merchantId: string, mode: Mode, name: string): Promise<bigint>;
}
