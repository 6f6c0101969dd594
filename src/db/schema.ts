/**
 * Row types as the drivers return them. Every integer column is BIGINT and arrives as a
 * `bigint` on both backends (better-sqlite3 in safe-integer mode, pg with an int8 parser),
 * so money never passes through a float and both databases map the same way.
 */
export type MerchantsTable = { id: string; name: string; created_at: bigint; settings: string };

export type ApiKeysTable = {
  key: string;
  merchant_id: string;
  mode: string;
  secret_hash: string;
  created_at: bigint;
  revoked_at: bigint | null;
};

export type PaymentMethodsTable = {
  id: string;
  status: string;
  type: string;
  country_id: string;
  currency: string;
  min_amount_minor: bigint;
  max_amount_minor: bigint;
  network_id: string | null;
  network_name: string | null;
  cash_provider_id: string | null;
  cash_provider_name: string | null;
  crypto_provider_id: string | null;
  crypto_provider_name: string | null;
  allow_recurrent_payment: bigint;
  position: bigint;
};

export type PaymentLinksTable = {
  id: string;
  merchant_id: string;
  mode: string;
  title: string;
  amount_minor: bigint;
  currency: string;
  interval_type: string;
  interval_count: bigint | null;
  trial_interval_type: string | null;
  trial_interval_count: bigint;
  signup_fee_minor: bigint;
  external_id: string | null;
  status: string;
  version: bigint;
  created_at: bigint;
  updated_at: bigint;
};

export type CheckoutPreferencesTable = {
  id: string;
  merchant_id: string;
  mode: string;
  type: string;
  status: string;
  amount_minor: bigint;
  currency: string;
  title: string;
  origin: string;
  origin_id: string | null;
  external_id: string | null;
  payment_link_id: string | null;
  payer_email: string | null;
  payer_first_name: string | null;
  payer_last_name: string | null;
  payer_phone_number: string | null;
  payment_method_types: string | null;
  selected_payment_method_id: string | null;
  status_changes_webhook: string | null;
  success_payment_redirect: string | null;
  error_payment_redirect: string | null;
  expires_at: bigint;
  created_at: bigint;
  updated_at: bigint;
  payment_order_id: string | null;
};

export type IdempotencyKeysTable = {
  merchant_id: string;
  mode: string;
  key: string;
  request_hash: string;
  state: string;
  response_status: bigint | null;
  response_body: string | null;
  locked_until: bigint;
  created_at: bigint;
  expires_at: bigint;
};

export type Database = {
  merchants: MerchantsTable;
  api_keys: ApiKeysTable;
  payment_methods: PaymentMethodsTable;
  payment_links: PaymentLinksTable;
  checkout_preferences: CheckoutPreferencesTable;
  idempotency_keys: IdempotencyKeysTable;
};
