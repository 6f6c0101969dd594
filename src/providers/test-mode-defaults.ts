import type { MerchantPaymentSettings } from '../domain/payment-methods/payment-provider.ts';
import { BTC_TESTNET_TEST_VPUB, EVM_TEST_XPUB } from './crypto-onchain/derivation.ts';

/**
 * Working payment settings for test mode, so every test merchant can try every method out of
 * the box. The extended public keys are published test vectors (BIP84 testnet, and the account
 * key of the well-known development mnemonic): nobody should ever send real funds to them.
 */
export const TEST_MODE_DEFAULTS: MerchantPaymentSettings = {
  pix: { key: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906', merchantName: 'Cobro Test Merchant', city: 'Sao Paulo' },
  crypto: { btcXpub: BTC_TESTNET_TEST_VPUB, btcNetwork: 'testnet', evmXpub: EVM_TEST_XPUB },
  bank: {
    bankName: 'Cobro Test Bank',
    accountHolder: 'Cobro Test Merchant',
    accountNumber: '000123456789',
    routing: '0001',
  },
};
