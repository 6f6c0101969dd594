import type { PaymentKeyChecks } from '../domain/merchants/payment-settings.ts';
import { deriveBtcAddress, deriveEvmAddress } from './crypto-onchain/derivation.ts';
import { detectPixKeyType, foldToAscii } from './pix/br-code.ts';

/** Why `fn` throws, or null when it does not. */
function problemOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The payment-settings checks that need provider code: a value passes when the provider that
 * will use it can (the PIX key's format, the BR Code's ASCII text, address 0 derived from
 * each extended public key).
 */
export const paymentKeyChecks: PaymentKeyChecks = {
  isPixKey: (key) => detectPixKeyType(key) !== null,
  pixTextProblem: (text) =>
    problemOf(() => foldToAscii(text)) === null
      ? null
      : 'has characters a BR Code cannot carry: use Latin letters (accents are fine), digits and punctuation',
  btcXpubProblem: (xpub, network) => problemOf(() => deriveBtcAddress(xpub, 0, network)),
  evmXpubProblem: (xpub) => problemOf(() => deriveEvmAddress(xpub, 0)),
};
