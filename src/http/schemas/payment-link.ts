import { Type } from 'typebox';
import type { CurrencyTable } from '../../domain/currencies/currency.ts';
import { toWireTime } from '../../domain/shared/clock.ts';
import { fromMinorUnits } from '../../domain/shared/money.ts';
import type { PaymentLink } from '../../domain/subscriptions/payment-link.ts';
import { INTERVAL_TYPES } from '../../domain/subscriptions/payment-link.ts';
import { planLinkUrl } from '../../domain/subscriptions/plan-link-url.ts';
import { Nullable, StringEnum } from './common.ts';

export const CreatePaymentLinkBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 255 }),
  amount: Type.Number({ description: 'Amount per period, major units' }),
  currency: Type.String({ maxLength: 10 }),
  interval_type: StringEnum(INTERVAL_TYPES),
  interval_count: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'Number of periods; null or absent: until cancelled' }),
    ),
  ),
  trial_interval_type: Type.Optional(Nullable(StringEnum(INTERVAL_TYPES))),
  trial_interval_count: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1000 }))),
  signup_fee_amount: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  external_id: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
});

/** POST or PATCH /v1/payment_links/{id}: the members to change; absent members keep their value. */
export const UpdatePaymentLinkBody = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  amount: Type.Optional(Type.Number({ description: 'Amount per period, major units' })),
  currency: Type.Optional(
    Type.String({ maxLength: 10, description: "Only the plan's own currency is accepted (it cannot change)" }),
  ),
  interval_type: Type.Optional(StringEnum(INTERVAL_TYPES)),
  interval_count: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 1000, description: 'Number of periods; null: until cancelled' })),
  ),
  trial_interval_type: Type.Optional(Nullable(StringEnum(INTERVAL_TYPES, { description: 'null removes the trial' }))),
  trial_interval_count: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, maximum: 1000, description: '0 or null removes the trial' })),
  ),
  signup_fee_amount: Type.Optional(Nullable(Type.Number({ minimum: 0, description: '0 or null: no fee' }))),
});

export const PaymentLinkResponse = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    amount: Type.Number(),
    currency: Type.String(),
    interval_type: StringEnum(INTERVAL_TYPES),
    interval_count: Nullable(Type.Integer()),
    trial_interval_type: Nullable(StringEnum(INTERVAL_TYPES)),
    trial_interval_count: Type.Integer(),
    signup_fee_amount: Type.Number(),
    gross_total_amount: Nullable(Type.Number({ description: 'Whole plan: amount × interval_count + sign-up fee' })),
    external_id: Nullable(Type.String()),
    status: StringEnum(['ACTIVE', 'ARCHIVED'] as const),
    version: Type.Integer(),
    user_id: Type.String(),
    public_url: Type.String({
      description:
        "The plan's public link, {PUBLIC_URL}/l/{id}: each payer who opens it gets a new SUBSCRIPTION checkout for the plan (an archived plan's link answers 410)",
    }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'PaymentLink' },
);

/** `publicUrl` is PUBLIC_URL without a trailing slash (Services.publicUrl), the base of `public_url`. */
export function toPaymentLinkResponse(l: PaymentLink, currencies: CurrencyTable, publicUrl: string) {
  const decimals = currencies.decimalsOf(l.currency);
  return {
    id: l.id,
    title: l.title,
    amount: fromMinorUnits(l.amountMinor, decimals),
    currency: l.currency,
    interval_type: l.intervalType,
    interval_count: l.intervalCount,
    trial_interval_type: l.trialIntervalType,
    trial_interval_count: l.trialIntervalCount,
    signup_fee_amount: fromMinorUnits(l.signupFeeMinor, decimals),
    gross_total_amount:
      l.intervalCount === null
        ? null
        : fromMinorUnits(l.amountMinor * BigInt(l.intervalCount) + l.signupFeeMinor, decimals),
    external_id: l.externalId,
    status: l.status,
    version: l.version,
    user_id: l.merchantId,
    public_url: planLinkUrl(publicUrl, l.id),
    created_at: toWireTime(l.createdAt),
    updated_at: toWireTime(l.updatedAt),
  };
}
