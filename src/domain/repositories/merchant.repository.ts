import type { Merchant } from '../merchants/merchant.ts';

export interface MerchantRepository {
  insert(merchant: Merchant): Promise<void>;
  get(id: string): Promise<Merchant | undefined>;
  count(): Promise<number>;
  /** Payment settings as stored (JSON text), see merchant-settings.ts. */
  getSettings(id: string): Promise<string | undefined>;
  setSettings(id: string, settings: string): Promise<void>;
}
