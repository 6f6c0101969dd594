import { Type } from 'typebox';
import type { CurrencyTable } from '../../domain/currencies/currency.ts';
import { PAYMENT_METHOD_TYPES } from '../../domain/payment-methods/payment-method.ts';
import { PAYMENT_ORDER_STATUSES } from '../../domain/payment-orders/payment-order.status.ts';
import type { PaymentOrder } from '../../domain/payment-orders/payment-order.ts';
import { toWireTime } from '../../domain/shared/clock.ts';
import { fromMinorUnits } from '../../domain/shared/money.ts';
import { Nullable, StringEnum } from './common.ts';

export const PaymentOrderResponse = Type.Object(
  {
    id: Type.String(),
    checkout_preference_id: Nullable(Type.String()),
    recurrent_payment_id: Nullable(Type.String()),
    amount: Type.Number(),
    currency: Type.String(),
    charged_amount: Type.Number({ description: 'What the method charges, in its own currency (crypto differs)' }),
    charged_currency: Type.String(),
    received_amount: Nullable(Type.Number({ description: 'What the provider reported receiving (push methods)' })),
    status: StringEnum(PAYMENT_ORDER_STATUSES),
    anomaly: StringEnum(['NONE', 'UNDERPAID', 'OVERPAID', 'PAID_LATE'] as const),
    title: Type.String(),
    user_id: Type.String(),
    origin: StringEnum(['API', 'PAYMENT_LINK'] as const),
    external_id: Nullable(Type.String()),
    payment_method_id: Type.String(),
    payment_method_type: StringEnum(PAYMENT_METHOD_TYPES),
    payer: Type.Object({
      email: Nullable(Type.String()),
      first_name: Nullable(Type.String()),
      last_name: Nullable(Type.String()),
      phone_number: Nullable(Type.String()),
    }),
    payment_instructions: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'Method-specific' })),
    failure_code: Nullable(Type.String()),
    failure_message: Nullable(Type.String()),
    sequence: Type.Integer(),
    created_at: Type.String(),
    updated_at: Type.String(),
    expiration_date: Type.String(),
    expired_at: Nullable(Type.String()),
    closed_at: Nullable(Type.String()),
    refunded_at: Nullable(Type.String()),
  },
  { $id: 'PaymentOrder' },
);

const time = (ms: number | null): string | null => (ms === null ? null : toWireTime(ms));

export function toPaymentOrderResponse(o: PaymentOrder, currencies: CurrencyTable) {
  const decimals = currencies.decimalsOf(o.currency);
  const chargedDecimals = currencies.decimalsOf(o.chargedCurrency);
  return {
    id: o.id,
    checkout_preference_id: o.checkoutPreferenceId,
    recurrent_payment_id: o.recurrentPaymentId,
    amount: fromMinorUnits(o.amountMinor, decimals),
    currency: o.currency,
    charged_amount: fromMinorUnits(o.chargedAmountMinor, chargedDecimals),
    charged_currency: o.chargedCurrency,
    received_amount: o.receivedAmountMinor === null ? null : fromMinorUnits(o.receivedAmountMinor, chargedDecimals),
    status: o.status,
    anomaly: o.anomaly,
    title: o.title,
    user_id: o.merchantId,
    origin: o.origin,
    external_id: o.externalId,
    payment_method_id: o.paymentMethodId,
    payment_method_type: o.paymentMethodType,
    payer: {
      email: o.payer.email,
      first_name: o.payer.firstName,
      last_name: o.payer.lastName,
      phone_number: o.payer.phoneNumber,
    },
    payment_instructions: o.instructions,
    failure_code: o.failureCode,
    failure_message: o.failureMessage,
    sequence: o.sequence,
    created_at: toWireTime(o.createdAt),
    updated_at: toWireTime(o.updatedAt),
    expiration_date: toWireTime(o.expiresAt),
    expired_at: time(o.expiredAt),
    closed_at: time(o.closedAt),
    refunded_at: time(o.refundedAt),
  };
}
