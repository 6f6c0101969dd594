import type { LogoFile } from '../merchants/logo-image.ts';

export interface MerchantLogoRepository {
  /** Stores the logo unless this merchant already has these very bytes. */
  put(logo: LogoFile): Promise<void>;
  get(merchantId: string, sha256: string): Promise<LogoFile | undefined>;
  /** Deletes the merchant's logos except `keep` (all of them when null). */
  deleteAllBut(merchantId: string, keep: string | null): Promise<void>;
}
