export type PaymentMethodType = 'BANK_TRANSFER' | 'CRYPTO_ONCHAIN' | 'CASH' | 'CARD' | 'PIX';

export const PAYMENT_METHOD_TYPES: readonly PaymentMethodType[] = [
  'BANK_TRANSFER',
  'CRYPTO_ONCHAIN',
  'CASH',
  'CARD',
  'PIX',
];

export type PaymentMethodStatus = 'ENABLED' | 'DISABLED';

export type NamedRef = { id: string; name: string };

/** A way to pay, from the catalogue. Limits are in the method's own currency, in minor units. */
export type PaymentMethod = {
  id: string;
  status: PaymentMethodStatus;
  type: PaymentMethodType;
  countryId: string;
  currency: string;
  minAmountMinor: bigint;
  maxAmountMinor: bigint;
  network: NamedRef | null;
  cashProvider: NamedRef | null;
  cryptoProvider: NamedRef | null;
  allowRecurrentPayment: boolean;
};
