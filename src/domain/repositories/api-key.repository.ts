import type { ApiKey, Mode } from '../merchants/merchant.ts';

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
