import type { ApiKey, Merchant } from './merchant.ts';

export interface MerchantRepository {
  insert(merchant: Merchant): Promise<void>;
  get(id: string): Promise<Merchant | undefined>;
  count(): Promise<number>;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  get(key: string): Promise<ApiKey | undefined>;
  /** Marks the key revoked; returns false when no such key exists. */
  revoke(key: string, at: number): Promise<boolean>;
}
