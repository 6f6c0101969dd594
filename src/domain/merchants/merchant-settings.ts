import type { MerchantPaymentSettings } from '../payment-methods/payment-provider.ts';
import type { Mode } from './merchant.ts';

/**
 * Stored shape (JSON in merchants.settings). Push methods pay the merchant directly, so they
 * need the merchant's own PIX key, extended public keys and bank account.
 */
export type StoredSettings = {
  pix?: { key: string; merchant_name: string; city: string };
  crypto?: { btc_xpub?: string; btc_network?: 'mainnet' | 'testnet'; evm_xpub?: string };
  bank?: { bank_name: string; account_holder: string; account_number: string; routing: string };
};

/** Parses stored settings; in test mode, what the merchant did not set falls back to `testDefaults`. */
export function parseSettings(
  json: string | undefined,
  mode: Mode,
  testDefaults: MerchantPaymentSettings,
): MerchantPaymentSettings {
  let stored: StoredSettings = {};
  try {
    stored = json ? (JSON.parse(json) as StoredSettings) : {};
  } catch {
    stored = {};
  }
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
