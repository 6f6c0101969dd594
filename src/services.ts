import type { CheckoutPreferenceService } from './domain/checkout-preferences/checkout-preference.service.ts';
import type { CardCheckoutService } from './domain/connectors/card-checkout.service.ts';
import type { CardIntentService } from './domain/connectors/card-intent.service.ts';
import type { CardRefundService } from './domain/connectors/card-refund.service.ts';
import type { CardSubscriptionService } from './domain/connectors/card-subscription.service.ts';
import type { ConnectService } from './domain/connectors/connect.service.ts';
import type { ConnectionCheckService } from './domain/connectors/connection-check.service.ts';
import type { ConnectionReadService } from './domain/connectors/connection-read.service.ts';
import type { ConnectionRemovalService } from './domain/connectors/connection-removal.service.ts';
import type { ConnectorAccess } from './domain/connectors/connector-access.ts';
import type { ConnectorEventService } from './domain/connectors/connector-event.service.ts';
import type { PixChargeService } from './domain/connectors/pix-charge.service.ts';
import type { CurrencyTable } from './domain/currencies/currency.ts';
import type { AccessRefusalService } from './domain/dashboard/access-refusals.service.ts';
import type { AccountService } from './domain/dashboard/account.service.ts';
import type { AuditLogService } from './domain/dashboard/audit.ts';
import type { DashboardAuthService } from './domain/dashboard/dashboard-auth.service.ts';
import type { DashboardStatsService } from './domain/dashboard/stats.service.ts';
import type { TeamService } from './domain/dashboard/team.service.ts';
import type { IdempotencyService } from './domain/idempotency/idempotency.service.ts';
import type { MerchantService } from './domain/merchants/merchant.service.ts';
import type { MerchantProfileService } from './domain/merchants/merchant-profile.ts';
import type { PaymentSettingsService } from './domain/merchants/payment-settings.ts';
import type { TestMailboxService } from './domain/notifications/test-mailbox.service.ts';
import type { MethodAvailabilityService } from './domain/payment-methods/method-availability.ts';
import type { PaymentMethodService } from './domain/payment-methods/payment-method.service.ts';
import type { PaymentOrderMoveService } from './domain/payment-orders/payment-order-move.service.ts';
import type { PaymentOrderQueryService } from './domain/payment-orders/payment-order-query.service.ts';
import type { PaymentStartService } from './domain/payment-orders/payment-start.service.ts';
import type { TestHelperService } from './domain/payment-orders/test-helpers.service.ts';
import type { LinkSigner } from './domain/shared/link-signer.ts';
import type { PayerPortalService } from './domain/subscriptions/payer-portal.service.ts';
import type { PaymentLinkService } from './domain/subscriptions/payment-link.service.ts';
import type { SubscriptionService } from './domain/subscriptions/subscription.service.ts';
import type { WebhookEndpointService } from './domain/webhooks/webhook-endpoint.service.ts';
import type { WebhookEventService } from './domain/webhooks/webhook-event.service.ts';
import type { WebhookSecretService } from './domain/webhooks/webhook-secret.service.ts';

/** The service set: the domain services the API (http/) and the pages (web/) call; built in main.ts (or the test harness). */
export type Services = {
  merchants: MerchantService;
  /** The business profile payers see (display name, support e-mail, accent colour, logo). */
  profiles: MerchantProfileService;
  /** Payment settings (PIX key, extended public keys, bank account), checked as the command line checks them. */
  paymentSettings: PaymentSettingsService;
  preferences: CheckoutPreferenceService;
  paymentLinks: PaymentLinkService;
  paymentMethods: PaymentMethodService;
  /** Which methods a merchant can offer in a mode (live mode: only what can settle), and why not. */
  availability: MethodAvailabilityService;
  idempotency: IdempotencyService;
  currencies: CurrencyTable;
  /** Payment orders, a service a step: reading them, starting a payment, moving an open or closed one. */
  orders: PaymentOrderQueryService;
  paymentStart: PaymentStartService;
  orderMoves: PaymentOrderMoveService;
  testHelpers: TestHelperService;
  webhooks: { endpoints: WebhookEndpointService; events: WebhookEventService; secrets: WebhookSecretService };
  /**
   * Merchants' own processor accounts (INTERFACE §11), a service a step: connecting, reading,
   * testing and removing a connection; the connections opened for the payment services; the
   * events they send, card intents, PIX charges at the PSP.
   */
  connectors: {
    connecting: ConnectService;
    connections: ConnectionReadService;
    checks: ConnectionCheckService;
    removal: ConnectionRemovalService;
    access: ConnectorAccess;
    events: ConnectorEventService;
    intents: CardIntentService;
    /** Refunds of card orders at the merchant's processor (the card-refund-sync job runs its sync). */
    refunds: CardRefundService;
    /** Card payments on the hosted checkout through the merchant's processor: the card step, the return page, the settle job. */
    cards: CardCheckoutService;
    pix: PixChargeService;
    /** Card subscriptions through a processor connection: saved cards, off-session renewals, the payer's confirmation. */
    cardSubscriptions: CardSubscriptionService;
  };
  subscriptions: SubscriptionService;
  /** PUBLIC_URL without a trailing slash: the base of every link given to payers. */
  publicUrl: string;
  /** Signs the links sent to payers (their subscription page). */
  signer: LinkSigner;
  /** Keys the CSRF tokens of the payer pages' forms (derived from the secrets key, so forms survive restarts). */
  csrfKey: Buffer;
  /** The payer's subscription page: see, cancel, change the card (signed links). */
  payerPortal: PayerPortalService;
  /** Test mode: the mails written to this merchant's payers. */
  mailbox: TestMailboxService;
  /** The merchant dashboard's people: sign-in and sessions, the team, one's own account. */
  dashboard: {
    auth: DashboardAuthService;
    team: TeamService;
    account: AccountService;
    audit: AuditLogService;
    /** Refused attempts (role, CSRF, another merchant's or the other mode's object) in the audit log. */
    refusals: AccessRefusalService;
    /** The dashboard's figures (home page, plan subscribers and MRR): aggregate queries only. */
    stats: DashboardStatsService;
  };
};
