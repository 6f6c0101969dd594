import type { PixChargeOutcome, PixRefundOutcome } from '../../../domain/connectors/pix-connector.ts';

/**
 * The statuses of the API Pix specification (bacen/pix-api, `CobrancaStatus` and the `status`
 * of `Devolucao`) and what Cobro does about each. A status not listed is WAIT: an order never
 * closes or gives up on a word Cobro does not know.
 */
export const CHARGE_OUTCOMES: Readonly<Record<string, PixChargeOutcome>> = {
  ATIVA: 'WAIT',
  CONCLUIDA: 'PAID',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'GONE',
  REMOVIDA_PELO_PSP: 'GONE',
};

export const REFUND_OUTCOMES: Readonly<Record<string, PixRefundOutcome>> = {
  EM_PROCESSAMENTO: 'WAIT',
  DEVOLVIDO: 'REFUNDED',
  NAO_REALIZADO: 'FAILED',
};

export function chargeOutcome(status: string): PixChargeOutcome {
  return CHARGE_OUTCOMES[status] ?? 'WAIT';
}

export function refundOutcome(status: string): PixRefundOutcome {
  return REFUND_OUTCOMES[status] ?? 'WAIT';
}

/** The specification's money: a string of 1 to 10 digits, a point and two decimals (`\d{1,10}\.\d{2}`). */
const VALOR = /^(\d{1,10})\.(\d{2})$/;

/** Centavos as the API's `valor` ("1690" → "16.90"); RangeError past what the field can hold. */
export function toValor(centavos: bigint): string {
  if (centavos < 0n || centavos >= 10n ** 12n) {
    throw new RangeError(`an amount of ${centavos} centavos does not fit the API Pix valor field`);
  }
  const text = centavos.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** The API's `valor` in centavos; null when it is not of the specification's form. */
export function fromValor(valor: unknown): bigint | null {
  const match = typeof valor === 'string' ? VALOR.exec(valor) : null;
  return match ? BigInt(`${match[1]}${match[2]}`) : null;
}
