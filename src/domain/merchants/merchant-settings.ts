import type { MerchantPaymentSettings } from '../payment-methods/payment-provider.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { AppError } from '../shared/errors.ts';
import type { Mode } from './merchant.ts';

/**
 * Stored shape (JSON in merchants.settings). Push methods pay the merchant directly, so they
 * need the merchant's own PIX key, extended public keys and bank account.
 */
export type StoredSettings = {
  pix?: { key: string; merchant_name: string; city: string };
  crypto?: { btc_xpub?: string; btc_network?: 'mainnet' | 'testnet'; evm_xpub?: string };
  bank?: { bank_name: string; account_holder: string; account_number: string; routing: string };
  /** What the payer sees of the merchant (checkout, e-mails): see merchant-profile.ts. */
  profile?: StoredProfile;
};

/** The logo's bytes live in merchant_logos under (merchant, sha256); settings name the current one. */
export type StoredLogo = { sha256: string; content_type: 'image/png' | 'image/jpeg'; width: number; height: number };

/** Every member optional: an unset display name means the merchant's own name. */
export type StoredProfile = {
  display_name?: string;
  support_email?: string;
  /** `#rrggbb`, lower case. */
  accent_color?: string;
  logo?: StoredLogo;
};

type Nullable<T> = { [K in keyof T]?: T[K] | null };

/**
 * A change to the stored settings. `pix` and `bank` given replace the section; `crypto` and
 * `profile` are merged member by member. `null` (for a section or a member) removes it;
 * absent leaves it as it is.
 */
export type SettingsPatch = {
  pix?: StoredSettings['pix'] | null;
  bank?: StoredSettings['bank'] | null;
  crypto?: Nullable<NonNullable<StoredSettings['crypto']>> | null;
  profile?: Nullable<StoredProfile> | null;
};

/** The stored JSON as an object; unreadable text counts as nothing stored. */
export function readStoredSettings(json: string | undefined): StoredSettings {
  try {
    const parsed: unknown = json ? JSON.parse(json) : {};
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as StoredSettings) : {};
  } catch {
    return {};
  }
}

function mergeMembers<T extends object>(current: T | undefined, patch: Nullable<T> | null | undefined): T | undefined {
  if (patch === null) {
    return undefined;
  }
  if (patch === undefined) {
    return current;
  }
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete next[key];
    } else if (value !== undefined) {
      next[key] = value;
    }
  }
  return Object.keys(next).length === 0 ? undefined : (next as T);
}

/** `current` with `patch` applied (see SettingsPatch); sections left empty are dropped. */
export function mergeSettings(current: StoredSettings, patch: SettingsPatch): StoredSettings {
  const next: StoredSettings = { ...current };
  const put = <K extends keyof StoredSettings>(key: K, value: StoredSettings[K] | undefined) => {
    if (value === undefined) {
      delete next[key];
    } else {
      next[key] = value;
    }
  };
  if (patch.pix !== undefined) {
    put('pix', patch.pix ?? undefined);
  }
  if (patch.bank !== undefined) {
    put('bank', patch.bank ?? undefined);
  }
  put('crypto', mergeMembers(current.crypto, patch.crypto));
  put('profile', mergeMembers(current.profile, patch.profile));
  return next;
}

/**
 * Applies `patch` to a merchant's stored settings inside the caller's transaction, so a change
 * that also writes elsewhere (a logo's bytes) commits with it. The one writer of merchants.settings.
 */
export async function applySettingsPatch(
  repos: Repositories,
  merchantId: string,
  patch: SettingsPatch,
): Promise<StoredSettings> {
  if (!(await repos.merchants.get(merchantId))) {
    throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
  }
  const next = mergeSettings(readStoredSettings(await repos.merchants.getSettings(merchantId)), patch);
  await repos.merchants.setSettings(merchantId, JSON.stringify(next));
  return next;
}

/** The payment settings a checkout uses: the stored ones, and in test mode `testDefaults` for any section not stored. */
export function effectiveSettings(
  stored: StoredSettings,
  mode: Mode,
  testDefaults: MerchantPaymentSettings,
): MerchantPaymentSettings {
  const fallback = mode === 'test' ? testDefaults : { pix: null, crypto: null, bank: null };
  return {
    pix: stored.pix
      ? { key: stored.pix.key, merchantName: stored.pix.merchant_name, city: stored.pix.city }
      : fallback.pix,
    crypto: stored.crypto
      ? {
          btcXpub: stored.crypto.btc_xpub ?? null,
          btcNetwork: stored.crypto.btc_network ?? (mode === 'test' ? 'testnet' : 'mainnet'),
          evmXpub: stored.crypto.evm_xpub ?? null,
        }
      : fallback.crypto,
    bank: stored.bank
      ? {
          bankName: stored.bank.bank_name,
          accountHolder: stored.bank.account_holder,
          accountNumber: stored.bank.account_number,
          routing: stored.bank.routing,
        }
      : fallback.bank,
  };
}
