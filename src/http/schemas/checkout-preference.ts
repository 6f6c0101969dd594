import { Type } from 'typebox';
import type { CheckoutPreference } from '../../domain/checkout-preferences/checkout-preference.ts';
import type { CurrencyTable } from '../../domain/currencies/currency.ts';
import { PAYMENT_METHOD_TYPES } from '../../domain/payment-methods/payment-method.ts';
import { toWireTime } from '../../domain/shared/clock.ts';
import { fromMinorUnits } from '../../domain/shared/money.ts';
import { Nullable, StringEnum } from './common.ts';

const OptionalText = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ maxLength, ...(description ? { description } : {}) })));

/**
 * The create body. Only types are checked here; rules that need the clock, the rate table or
 * the catalogue live in the domain. Unknown members are allowed and ignored (old clients send
 * `country_id`, `metadata`, `items`…); `additionalProperties` is left open on purpose.
 */
export const CreateCheckoutPreferenceBody = Type.Object({
  type: StringEnum(['PAYMENT', 'SUBSCRIPTION'] as const),
  origin: StringEnum(['API'] as const, { description: '`API` for API integrations' }),
  amount: Type.Optional(
    Nullable(Type.Number({ description: 'Major units; rounded half-up to the currency decimals' })),
  ),
  currency: OptionalText(10),
  title: OptionalText(255),
  external_id: OptionalText(255, "The merchant's own identifier, returned verbatim"),
  expiration_date: OptionalText(64, 'RFC 3339; at most 7 days ahead; default 15 minutes'),
  payment_link_id: Type.Optional(Nullable(Type.Union([Type.String({ maxLength: 64 }), Type.Integer()]))),
  payer: Type.Optional(
    Nullable(
      Type.Object({
        email: OptionalText(254),
        name: OptionalText(200, 'Same as first_name'),
        first_name: OptionalText(200),
        last_name: OptionalText(200),
        phone: OptionalText(40, 'Same as phone_number'),
        phone_number: OptionalText(40),
      }),
    ),
  ),
  payment_method_types: Type.Optional(
    Nullable(Type.Array(StringEnum(PAYMENT_METHOD_TYPES), { minItems: 1, maxItems: 5 })),
  ),
  selected_payment_method_id: OptionalText(64),
  custom_urls: Type.Optional(
    Nullable(
      Type.Object({
        status_changes_webhook: OptionalText(4096),
        success_payment_redirect: OptionalText(4096),
        error_payment_redirect: OptionalText(4096),
      }),
    ),
  ),
});

const PayerResponse = Type.Object({
  email: Nullable(Type.String()),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  phone_number: Nullable(Type.String()),
});

export const CheckoutPreferenceResponse = Type.Object(
  {
    id: Type.String(),
    type: StringEnum(['PAYMENT', 'SUBSCRIPTION'] as const),
    status: StringEnum(['OPEN', 'PAID', 'EXPIRED'] as const),
    amount: Type.Number(),
    currency: Type.String(),
    title: Type.String(),
    origin: StringEnum(['API', 'PAYMENT_LINK'] as const),
    origin_id: Nullable(Type.String()),
    external_id: Nullable(Type.String()),
    user_id: Type.String({ description: "The merchant's id" }),
    payment_link_id: Nullable(Type.String()),
    payer: PayerResponse,
    payment_method_types: Nullable(Type.Array(StringEnum(PAYMENT_METHOD_TYPES))),
    selected_payment_method_id: Nullable(Type.String()),
    custom_urls: Type.Object({
      status_changes_webhook: Nullable(Type.String()),
      success_payment_redirect: Nullable(Type.String()),
      error_payment_redirect: Nullable(Type.String()),
    }),
    expiration_date: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    checkout_url: Type.String(),
    payment_order_id: Nullable(Type.String()),
  },
  { $id: 'CheckoutPreference' },
);

/** Built field by field: rows and domain objects never reach the wire as they are. */
export function toCheckoutPreferenceResponse(p: CheckoutPreference, currencies: CurrencyTable, checkoutUrl: string) {
  return {
    id: p.id,
    type: p.type,
    status: p.status,
    amount: fromMinorUnits(p.amountMinor, currencies.decimalsOf(p.currency)),
    currency: p.currency,
    title: p.title,
    origin: p.origin,
    origin_id: p.originId,
    external_id: p.externalId,
    user_id: p.merchantId,
    payment_link_id: p.paymentLinkId,
    payer: {
      email: p.payer.email,
      first_name: p.payer.firstName,
      last_name: p.payer.lastName,
      phone_number: p.payer.phoneNumber,
    },
    payment_method_types: p.paymentMethodTypes,
    selected_payment_method_id: p.selectedPaymentMethodId,
    custom_urls: {
      status_changes_webhook: p.customUrls.statusChangesWebhook,
      success_payment_redirect: p.customUrls.successPaymentRedirect,
      error_payment_redirect: p.customUrls.errorPaymentRedirect,
    },
    expiration_date: toWireTime(p.expiresAt),
    created_at: toWireTime(p.createdAt),
    updated_at: toWireTime(p.updatedAt),
    checkout_url: checkoutUrl,
    payment_order_id: p.paymentOrderId,
  };
}
