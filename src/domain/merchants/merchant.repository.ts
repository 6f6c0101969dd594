import type { ApiKey, Merchant, Mode } from './merchant.ts';

export interface MerchantRepository {
  insert(merchant: Merchant): Promise<void>;
  get(id: string): Promise<Merchant | undefined>;
  count(): Promise<number>;
  /** Payment settings as stored (JSON text), see merchant-settings.ts. */
  getSettings(id: string): Promise<string | undefined>;
  setSettings(id: string, settings: string): Promise<void>;
}

/** Monotonic per-merchant counters (address indexes, reference numbers). */
export interface CounterRepository {
  /** Returns the next value (starting at 1) and stores it, atomically. */
  next(merchantId: string, mode: Mode, name: string): Promise<bigint>;
}

export interface TestClockRepository {
  getOffset(merchantId: string): Promise<number>;
  setOffset(merchantId: string, offsetMs: number): Promise<void>;
  /** Merchants whose test clock is moved, with their offsets. */
  all(): Promise<{ merchantId: string; offsetMs: number }[]>;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  get(key: string): Promise<ApiKey | undefined>;
  /**
   * Marks the key revoked; returns false when no such key exists. Where other processes learn
   * of it by message (PostgreSQL), the implementation also announces it, delivered at commit.
   */
  revoke(key: string, at: number): Promise<boolean>;
  /** The merchant's keys of one mode, newest first, revoked ones included (the dashboard's list). */
  list(merchantId: string, mode: Mode): Promise<ApiKey[]>;
  /** Records that the key authenticated a request at `at` (never moves the time backwards). */
  touch(key: string, at: number): Promise<void>;
}
