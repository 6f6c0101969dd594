import { Type } from 'typebox';
import type { Currency, CurrencyTable } from '../../domain/currencies/currency.ts';
import type { PaymentMethod } from '../../domain/payment-methods/payment-method.ts';
import { PAYMENT_METHOD_TYPES } from '../../domain/payment-methods/payment-method.ts';
import { fromMinorUnits, rateToNumber } from '../../domain/shared/money.ts';
import { Nullable, StringEnum } from './common.ts';

const NamedRef = Type.Object({ id: Type.String(), name: Type.String() });

export const PaymentMethodResponse = Type.Object(
  {
    id: Type.String(),
    status: StringEnum(['ENABLED', 'DISABLED'] as const),
    type: StringEnum(PAYMENT_METHOD_TYPES),
    country_id: Type.String({ description: '`ALL` or an ISO 3166-1 alpha-3 code' }),
    currency: Type.String(),
    max_amount: Type.Number(),
    min_amount: Type.Number(),
    network: Nullable(NamedRef),
    cash_provider: Nullable(NamedRef),
    crypto_provider: Nullable(NamedRef),
    allow_recurrent_payment: Type.Boolean(),
  },
  { $id: 'PaymentMethod' },
);

export function toPaymentMethodResponse(m: PaymentMethod, currencies: CurrencyTable) {
  const decimals = currencies.decimalsOf(m.currency);
  return {
    id: m.id,
    status: m.status,
    type: m.type,
    country_id: m.countryId,
    currency: m.currency,
    max_amount: fromMinorUnits(m.maxAmountMinor, decimals),
    min_amount: fromMinorUnits(m.minAmountMinor, decimals),
    network: m.network,
    cash_provider: m.cashProvider,
    crypto_provider: m.cryptoProvider,
    allow_recurrent_payment: m.allowRecurrentPayment,
  };
}

export const CurrencyResponse = Type.Object(
  {
    code: Type.String(),
    name: Type.String(),
    decimals: Type.Integer(),
    usd_rate: Type.Number({ description: 'Units of this currency per 1 USD' }),
    is_crypto: Type.Boolean(),
  },
  { $id: 'Currency' },
);

export function toCurrencyResponse(c: Currency) {
  return { code: c.code, name: c.name, decimals: c.decimals, usd_rate: rateToNumber(c.usdRate), is_crypto: c.isCrypto };
}
