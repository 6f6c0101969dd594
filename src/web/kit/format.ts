import type { PaymentMethod } from '../../domain/payment-methods/payment-method.ts';
import type { Locale } from './locale.ts';
import { messagesFor } from './payer-messages.ts';

/**
 * The cash network whose vouchers are boletos: named "Boleto" in every language, as Brazilians
 * say it, whatever the catalogue's full name ("Boleto Bancário").
 */
const BOLETO = 'boleto';

/**
 * What a reader calls a method, in their language: "Cartão", "PIX", "USDC na Ethereum",
 * "Transferencia bancaria", "Efectivo (OXXO)", "Boleto". The payer's pages name methods in the
 * payer's language, the dashboard in the merchant's.
 */
export function methodName(
  method: Pick<PaymentMethod, 'type' | 'currency' | 'network' | 'cashProvider'>,
  locale: Locale,
): string {
  const m = messagesFor(locale);
  switch (method.type) {
    case 'CRYPTO_ONCHAIN':
      return method.network ? m.cryptoOn(method.currency, method.network.name) : m.methodTypeNames.CRYPTO_ONCHAIN;
    case 'CASH':
      if (method.cashProvider?.id === BOLETO) {
        return 'Boleto';
      }
      return method.cashProvider ? m.cashAt(method.cashProvider.name) : m.methodTypeNames.CASH;
    default:
      return m.methodTypeNames[method.type];
  }
}

/** Whether a cash method's vouchers are boletos (their instructions differ from a shop network's). */
export function isBoleto(method: Pick<PaymentMethod, 'cashProvider'> | undefined): boolean {
  return method?.cashProvider?.id === BOLETO;
}
