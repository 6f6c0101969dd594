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
  /** Given in the dashboard; null for keys made before 0009 or by the command line. */
  name: string | null;
  /** Written at most once an hour per key and process (MerchantService.authenticate). */
  last_used_at: bigint | null;
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

/** One superseded version of a plan (the current one is the payment_links row). */
export type PaymentLinkVersionsTable = {
  payment_link_id: string;
  version: bigint;
  title: string;
  amount_minor: bigint;
  currency: string;
  interval_type: string;
  interval_count: bigint | null;
  trial_interval_type: string | null;
  trial_interval_count: bigint;
  signup_fee_minor: bigint;
  created_at: bigint;
  superseded_at: bigint;
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
  charging_order_id: string | null;
  payment_link_version: bigint | null;
  charging_until: bigint | null;
};

export type PaymentOrdersTable = {
  id: string;
  merchant_id: string;
  mode: string;
  kind: string;
  checkout_preference_id: string | null;
  recurrent_payment_id: string | null;
  amount_minor: bigint;
  currency: string;
  charged_amount_minor: bigint;
  charged_currency: string;
  received_amount_minor: bigint | null;
  status: string;
  anomaly: string;
  title: string;
  origin: string;
  external_id: string | null;
  payment_method_id: string;
  payment_method_type: string;
  payer_email: string | null;
  payer_first_name: string | null;
  payer_last_name: string | null;
  payer_phone_number: string | null;
  instructions: string | null;
  provider_ref: string | null;
  failure_code: string | null;
  failure_message: string | null;
  sequence: bigint;
  expires_at: bigint;
  created_at: bigint;
  updated_at: bigint;
  expired_at: bigint | null;
  closed_at: bigint | null;
  refunded_at: bigint | null;
  period_index: bigint | null;
  period_attempt: bigint | null;
  chain_progress: string | null;
};

export type RecurrentPaymentsTable = {
  id: string;
  merchant_id: string;
  mode: string;
  payment_link_id: string;
  plan_version: bigint;
  checkout_preference_id: string;
  status: string;
  title: string;
  amount_minor: bigint;
  gross_amount_minor: bigint;
  currency: string;
  interval_type: string;
  interval_count: bigint | null;
  trial_interval_type: string | null;
  trial_interval_count: bigint;
  signup_fee_minor: bigint;
  payment_method_id: string;
  payment_method_type: string;
  card_token: string | null;
  payer_email: string | null;
  payer_first_name: string | null;
  payer_last_name: string | null;
  payer_phone_number: string | null;
  external_id: string | null;
  anchor_at: bigint | null;
  current_period_start: bigint | null;
  current_period_end: bigint | null;
  next_payment_date: bigint | null;
  periods_paid: bigint;
  failed_attempts: bigint;
  sequence: bigint;
  created_at: bigint;
  updated_at: bigint;
  canceled_at: bigint | null;
  deleted_by: string | null;
  card_brand: string | null;
  card_last4: string | null;
  /** 'en', 'es' or 'pt'; null before the column existed (read as English). */
  payer_language: string | null;
};

export type OutboundEmailsTable = {
  id: string;
  merchant_id: string;
  mode: string;
  to_address: string;
  subject: string;
  text_body: string;
  status: string;
  attempts: bigint;
  last_error: string | null;
  created_at: bigint;
  sent_at: bigint | null;
  /** A worker's lease while it sends the mail (migration 0014). */
  locked_until: bigint | null;
  lease_token: string | null;
};

export type EventsTable = {
  id: string;
  merchant_id: string;
  mode: string;
  event_type: string;
  entity_type: string;
  entity_id: string;
  checkout_preference_id: string | null;
  sequence: bigint;
  payload: string;
  created_at: bigint;
};

export type WebhookEndpointsTable = {
  id: string;
  merchant_id: string;
  mode: string;
  url: string;
  event_types: string | null;
  enabled: bigint;
  disabled_reason: string | null;
  description: string | null;
  created_at: bigint;
  updated_at: bigint;
  deleted_at: bigint | null;
};

export type WebhookSecretsTable = {
  owner: string;
  secret: string;
  previous_secret: string | null;
  previous_expires_at: bigint | null;
  updated_at: bigint;
};

export type WebhookDeliveriesTable = {
  id: string;
  event_id: string;
  merchant_id: string;
  mode: string;
  endpoint_id: string | null;
  secret_owner: string;
  url: string;
  status: string;
  attempts: bigint;
  next_attempt_at: bigint;
  locked_until: bigint | null;
  lease_token: string | null;
  last_status_code: bigint | null;
  last_error: string | null;
  created_at: bigint;
  updated_at: bigint;
};

export type WebhookAttemptsTable = {
  id: string;
  delivery_id: string;
  event_id: string;
  attempt: bigint;
  url: string;
  started_at: bigint;
  duration_ms: bigint;
  status_code: bigint | null;
  error: string | null;
  response_excerpt: string | null;
};

export type CountersTable = { merchant_id: string; mode: string; name: string; value: bigint };
export type TestClocksTable = { merchant_id: string; offset_ms: bigint };

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
  resource_id: string | null;
};

export type DashboardUsersTable = {
  id: string;
  email: string;
  password_hash: string;
  totp_secret: string | null;
  totp_enabled_at: bigint | null;
  totp_last_step: bigint | null;
  recovery_codes: string;
  locale: string;
  created_at: bigint;
};
export type DashboardMembershipsTable = { user_id: string; merchant_id: string; role: string; created_at: bigint };
export type DashboardInvitationsTable = {
  token_hash: string;
  merchant_id: string;
  email: string;
  role: string;
  invited_by: string | null;
  created_at: bigint;
  expires_at: bigint;
  used_at: bigint | null;
};
export type DashboardSessionsTable = {
  id_hash: string;
  user_id: string;
  stage: string;
  created_at: bigint;
  last_seen_at: bigint;
  expires_at: bigint;
  ip: string;
  user_agent: string;
};
export type DashboardPasswordResetsTable = {
  token_hash: string;
  user_id: string;
  created_at: bigint;
  expires_at: bigint;
  used_at: bigint | null;
};
export type DashboardThrottleTable = { key: string; window_start: bigint; failures: bigint };
export type AuditLogTable = {
  id: string;
  merchant_id: string;
  user_id: string | null;
  actor: string;
  action: string;
  object_type: string;
  object_id: string | null;
  ip: string | null;
  detail: string;
  at: bigint;
};

/** A merchant's logo, addressed by its SHA-256 (data: the bytes in base64). */
export type MerchantLogosTable = {
  merchant_id: string;
  sha256: string;
  content_type: string;
  width: bigint;
  height: bigint;
  data: string;
  created_at: bigint;
};

/** The home page's figures of one sealed UTC day (migration 0011). */
export type DashboardDaysTable = {
  merchant_id: string;
  mode: string;
  currency: string;
  day: bigint;
  checkouts_created: bigint | null;
  checkouts_paid: bigint | null;
  refunds: bigint;
  refunded_minor: bigint;
  failed_renewals: bigint;
  sealed_at: bigint;
};
export type DashboardDayMethodsTable = {
  merchant_id: string;
  mode: string;
  currency: string;
  day: bigint;
  payment_method_type: string;
  payments: bigint;
  volume_minor: bigint;
};

/** Test mode's card processor, the outside world's records (migration 0013). */
export type TestCardTokensTable = {
  token: string;
  brand: string;
  last4: string;
  exp_month: bigint;
  exp_year: bigint;
  outcome: string;
  created_at: bigint;
};
export type TestCardChargesTable = {
  charge_id: string;
  idempotency_key: string;
  fingerprint: string;
  result: string;
  approve_at: bigint | null;
  refunded: bigint;
  created_at: bigint;
};

export type ChainCursorsTable = {
  network: string;
  block_number: bigint;
  block_hash: string;
  checkpoints: string;
  updated_at: bigint;
};
export type ChainTransfersTable = {
  network: string;
  tx_hash: string;
  log_index: bigint;
  block_number: bigint;
  block_hash: string;
  contract: string;
  to_address: string;
  amount: string;
};

export type ProcessorConnectionsTable = {
  id: string;
  merchant_id: string;
  mode: string;
  provider: string;
  account_id: string;
  account_name: string | null;
  publishable_key: string;
  /** SecretBox text (v1.iv.tag.body): never the key itself. */
  secret_key_sealed: string;
  webhook_secret_sealed: string;
  webhook_id: string;
  webhook_endpoint_id: string | null;
  created_at: bigint;
  updated_at: bigint;
  last_event_at: bigint | null;
  last_error: string | null;
  /** JSON of what is not secret (API Pix: URLs, profile, client id, PIX key, CA); null for Stripe. */
  settings: string | null;
};
/** A PIX order's charge at its merchant's PSP (API Pix). */
export type PixChargesTable = {
  order_id: string;
  connection_id: string;
  merchant_id: string;
  mode: string;
  txid: string;
  state: string;
  end_to_end_id: string | null;
  refund_id: string | null;
  next_check_at: bigint;
  last_error: string | null;
  created_at: bigint;
  updated_at: bigint;
};
/** The refund of a card order at its merchant's processor (Stripe), one per order. */
export type CardRefundsTable = {
  order_id: string;
  connection_id: string;
  merchant_id: string;
  mode: string;
  provider: string;
  refund_id: string | null;
  status: string;
  source: string;
  next_check_at: bigint;
  last_error: string | null;
  created_at: bigint;
  updated_at: bigint;
};
/** A dispute the processor reported on a card order, once per dispute. */
export type CardDisputesTable = {
  provider: string;
  dispute_id: string;
  order_id: string;
  merchant_id: string;
  mode: string;
  reason: string;
  status: string;
  amount_minor: bigint | null;
  currency: string | null;
  evidence_due_by: bigint | null;
  created_at: bigint;
};
export type ConnectorEventsTable = {
  provider: string;
  event_id: string;
  connection_id: string;
  merchant_id: string;
  mode: string;
  type: string;
  object_id: string | null;
  outcome: string;
  received_at: bigint;
};

export type Database = {
  merchants: MerchantsTable;
  api_keys: ApiKeysTable;
  payment_methods: PaymentMethodsTable;
  payment_links: PaymentLinksTable;
  payment_link_versions: PaymentLinkVersionsTable;
  checkout_preferences: CheckoutPreferencesTable;
  idempotency_keys: IdempotencyKeysTable;
  payment_orders: PaymentOrdersTable;
  events: EventsTable;
  counters: CountersTable;
  test_clocks: TestClocksTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  recurrent_payments: RecurrentPaymentsTable;
  outbound_emails: OutboundEmailsTable;
  dashboard_users: DashboardUsersTable;
  dashboard_memberships: DashboardMembershipsTable;
  dashboard_invitations: DashboardInvitationsTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_password_resets: DashboardPasswordResetsTable;
  dashboard_throttle: DashboardThrottleTable;
  audit_log: AuditLogTable;
  merchant_logos: MerchantLogosTable;
  dashboard_days: DashboardDaysTable;
  dashboard_day_methods: DashboardDayMethodsTable;
  test_card_tokens: TestCardTokensTable;
  chain_cursors: ChainCursorsTable;
  chain_transfers: ChainTransfersTable;
  test_card_charges: TestCardChargesTable;
  processor_connections: ProcessorConnectionsTable;
  connector_events: ConnectorEventsTable;
  pix_charges: PixChargesTable;
  card_refunds: CardRefundsTable;
  card_disputes: CardDisputesTable;
};
