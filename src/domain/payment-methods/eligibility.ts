import type { CurrencyTable } from '../currencies/currency.ts';
import type { Money } from '../shared/money.ts';
import { convertMinor } from '../shared/money.ts';
import type { PaymentMethod, PaymentMethodType } from './payment-method.ts';

export type EligibilityQuery = {
  amount: Money;
  types: readonly PaymentMethodType[] | null;
  recurrent: boolean;
};

/**
 * The amount a method would charge for `amount`: the same when the currencies match; crypto
 * methods take any currency, converted at the rate table. Null when the method cannot serve it.
 */
export function amountInMethodCurrency(method: PaymentMethod, amount: Money, currencies: CurrencyTable): bigint | null {
  if (method.currency === amount.currency) {
    return amount.amountMinor;
  }
  if (method.type !== 'CRYPTO_ONCHAIN') {
    return null;
  }
  const from = currencies.get(amount.currency);
  const to = currencies.get(method.currency);
  if (!from || !to) {
    return null;
  }
  return convertMinor(
    amount.amountMinor,
    { decimals: from.decimals, rate: from.usdRate },
    { decimals: to.decimals, rate: to.usdRate },
  );
}

/** Why a method cannot serve a query, or null when it can. */
export function ineligibilityReason(
  method: PaymentMethod,
  query: EligibilityQuery,
  currencies: CurrencyTable,
): string | null {
  if (method.status !== 'ENABLED') {
    return 'is not enabled';
  }
  if (query.types && !query.types.includes(method.type)) {
    return `is of type ${method.type}, which payment_method_types does not include`;
  }
  if (query.recurrent && !method.allowRecurrentPayment) {
    return 'does not allow recurrent payments';
  }
  const charged = amountInMethodCurrency(method, query.amount, currencies);
  if (charged === null) {
    return `does not accept ${query.amount.currency}`;
  }
  if (charged < method.minAmountMinor || charged > method.maxAmountMinor) {
    return 'does not accept this amount (outside its min_amount and max_amount)';
  }
  return null;
}

export function eligibleMethods(
  methods: readonly PaymentMethod[],
  query: EligibilityQuery,
  currencies: CurrencyTable,
): PaymentMethod[] {
  return methods.filter((m) => ineligibilityReason(m, query, currencies) === null);
}
