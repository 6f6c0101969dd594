import { Type } from 'typebox';
import type { CurrencyTable } from '../../domain/currencies/currency.ts';
import { toWireTime } from '../../domain/shared/clock.ts';
import { fromMinorUnits } from '../../domain/shared/money.ts';
import { INTERVAL_TYPES } from '../../domain/subscriptions/payment-link.ts';
import { RECURRENT_PAYMENT_STATUSES } from '../../domain/subscriptions/recurrent-payment.status.ts';
import type { RecurrentPayment } from '../../domain/subscriptions/recurrent-payment.ts';
import { Nullable, StringEnum } from './common.ts';

/** Seed 2.4's record, plus the members INTERFACE.md §5 adds. */
export const RecurrentPaymentResponse = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('SUBSCRIPTION'),
    amount: Type.Number({ description: 'What the payer pays per period' }),
    currency: Type.String(),
    gross_amount: Type.Number({ description: "The plan's amount per period" }),
    gross_total_amount: Nullable(Type.Number({ description: 'The whole plan; null when it runs until cancelled' })),
    interval_count: Nullable(Type.Integer()),
    interval_type: StringEnum(INTERVAL_TYPES),
    signup_fee_amount: Type.Number(),
    trial_interval_count: Type.Integer(),
    trial_interval_type: Nullable(StringEnum(INTERVAL_TYPES)),
    initial_date: Nullable(Type.String({ description: 'Start of the first paid period' })),
    created_at: Type.String(),
    updated_at: Type.String(),
    status: StringEnum(RECURRENT_PAYMENT_STATUSES),
    title: Type.String(),
    user_id: Type.String(),
    origin: Type.Literal('PAYMENT_LINK'),
    external_id: Nullable(Type.String()),
    payer: Type.Object({
      email: Nullable(Type.String()),
      first_name: Nullable(Type.String()),
      last_name: Nullable(Type.String()),
      phone_number: Nullable(Type.String()),
    }),
    payment_link_id: Type.String(),
    plan_version: Type.Integer(),
    checkout_preference_id: Type.String(),
    payment_method_id: Type.String(),
    current_period_start: Nullable(Type.String()),
    current_period_end: Nullable(Type.String()),
    next_payment_date: Nullable(Type.String()),
    periods_paid: Type.Integer(),
    canceled_at: Nullable(Type.String()),
    deleted_by: Nullable(Type.String()),
  },
  { $id: 'RecurrentPayment' },
);

const time = (ms: number | null): string | null => (ms === null ? null : toWireTime(ms));

export function toRecurrentPaymentResponse(r: RecurrentPayment, currencies: CurrencyTable) {
  const d = currencies.decimalsOf(r.currency);
  return {
    id: r.id,
    type: 'SUBSCRIPTION' as const,
    amount: fromMinorUnits(r.amountMinor, d),
    currency: r.currency,
    gross_amount: fromMinorUnits(r.grossAmountMinor, d),
    gross_total_amount:
      r.intervalCount === null
        ? null
        : fromMinorUnits(r.grossAmountMinor * BigInt(r.intervalCount) + r.signupFeeMinor, d),
    interval_count: r.intervalCount,
    interval_type: r.intervalType,
    signup_fee_amount: fromMinorUnits(r.signupFeeMinor, d),
    trial_interval_count: r.trialIntervalCount,
    trial_interval_type: r.trialIntervalType,
    initial_date: time(r.anchorAt),
    created_at: toWireTime(r.createdAt),
    updated_at: toWireTime(r.updatedAt),
    status: r.status,
    title: r.title,
    user_id: r.merchantId,
    origin: 'PAYMENT_LINK' as const,
    external_id: r.externalId,
    payer: {
      email: r.payer.email,
      first_name: r.payer.firstName,
      last_name: r.payer.lastName,
      phone_number: r.payer.phoneNumber,
    },
    payment_link_id: r.paymentLinkId,
    plan_version: r.planVersion,
    checkout_preference_id: r.checkoutPreferenceId,
    payment_method_id: r.paymentMethodId,
    current_period_start: time(r.currentPeriodStart),
    current_period_end: time(r.currentPeriodEnd),
    next_payment_date: time(r.nextPaymentDate),
    periods_paid: r.periodsPaid,
    canceled_at: time(r.canceledAt),
    deleted_by: r.deletedBy,
  };
}
