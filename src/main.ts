import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config/config.ts';
import type { OpenDatabase } from './db/database.ts';
import { openDatabase } from './db/database.ts';
import { KyselyChainScanStore } from './db/repositories/chain-scan.repository.ts';
import { KyselyTestProcessorStore } from './db/repositories/test-card-processor.repository.ts';
import { CheckoutPreferenceService } from './domain/checkout-preferences/checkout-preference.service.ts';
import { CardDisputeService } from './domain/connectors/card-dispute.service.ts';
import { ConnectService } from './domain/connectors/connect.service.ts';
import { ConnectionCheckService } from './domain/connectors/connection-check.service.ts';
import { ConnectionReadService } from './domain/connectors/connection-read.service.ts';
import { ConnectionRemovalService } from './domain/connectors/connection-removal.service.ts';
import { ConnectorAccess } from './domain/connectors/connector-access.ts';
import { ConnectorEventService } from './domain/connectors/connector-event.service.ts';
import { AccessRefusalService } from './domain/dashboard/access-refusals.service.ts';
import { AccountService } from './domain/dashboard/account.service.ts';
import { AuditLogService } from './domain/dashboard/audit.ts';
import { CredentialThrottle } from './domain/dashboard/credential-throttle.service.ts';
import { DashboardAuthService } from './domain/dashboard/dashboard-auth.service.ts';
import { DashboardStatsService } from './domain/dashboard/stats.service.ts';
import { TeamService } from './domain/dashboard/team.service.ts';
import { IdempotencyService } from './domain/idempotency/idempotency.service.ts';
import { MerchantService } from './domain/merchants/merchant.service.ts';
import { MerchantProfileService } from './domain/merchants/merchant-profile.ts';
import { PaymentSettingsService } from './domain/merchants/payment-settings.ts';
import { TestMailboxService } from './domain/notifications/test-mailbox.service.ts';
import { DEFAULT_CATALOG } from './domain/payment-methods/catalog.ts';
import { MethodAvailabilityService } from './domain/payment-methods/method-availability.ts';
import { PaymentMethodService } from './domain/payment-methods/payment-method.service.ts';
import type { ChainObserver } from './domain/payment-orders/chain-observer.ts';
import type { PaymentOrderSweepService } from './domain/payment-orders/payment-order-sweep.service.ts';
import { TestHelperService } from './domain/payment-orders/test-helpers.service.ts';
import type { Clock } from './domain/shared/clock.ts';
import { systemClock } from './domain/shared/clock.ts';
import { LinkSigner } from './domain/shared/link-signer.ts';
import { SecretBox } from './domain/shared/secret-box.ts';
import { TestClocks } from './domain/shared/test-clocks.ts';
import type { CardValidator } from './domain/subscriptions/payer-portal.service.ts';
import { PayerPortalService } from './domain/subscriptions/payer-portal.service.ts';
import { PaymentLinkService } from './domain/subscriptions/payment-link.service.ts';
import type { SubscriptionBillingService } from './domain/subscriptions/subscription-billing.service.ts';
import { WebhookService } from './domain/webhooks/webhook.service.ts';
import { WebhookEndpointService } from './domain/webhooks/webhook-endpoint.service.ts';
import { WebhookEventService } from './domain/webhooks/webhook-event.service.ts';
import { WebhookSecretService } from './domain/webhooks/webhook-secret.service.ts';
import { EmailSender } from './jobs/email-sender.ts';
import { IdempotencySweeper } from './jobs/idempotency-sweeper.ts';
import { JobRunner } from './jobs/job-runner.ts';
import type { JobParts } from './jobs/job-schedule.ts';
import { runPaymentJobs, scheduleJobs } from './jobs/job-schedule.ts';
import { WebhookDeliveryJob } from './jobs/webhook-delivery.ts';
import { validateCard } from './providers/card/card-number.ts';
import { smtpTransport } from './providers/email/smtp-transport.ts';
import { paymentKeyChecks } from './providers/payment-key-checks.ts';
import type { ProviderRegistry } from './providers/registry.ts';
import { createProviders } from './providers/registry.ts';
import { TEST_MODE_DEFAULTS } from './providers/test-mode-defaults.ts';
import type { AddressPolicy } from './providers/webhooks/address-policy.ts';
import { webhookUrlProblem } from './providers/webhooks/address-policy.ts';
import type { Connector, Resolver } from './providers/webhooks/http-sender.ts';
import { createWebhookSender } from './providers/webhooks/http-sender.ts';
import { buildServer } from './server/server.ts';
import type { Services } from './services.ts';
import { evmNetworks, liveChains, requiredConfirmations } from './wiring/chain-sources.ts';
import { checkDurability } from './wiring/durability-check.ts';
import { defaultLogger } from './wiring/logging.ts';
import { buildPayments } from './wiring/payments.ts';
import { loadCurrencies } from './wiring/rates-file.ts';
import { loadSecretsKey } from './wiring/secrets-key.ts';

export type Cobro = {
  app: FastifyInstance;
  database: OpenDatabase;
  services: Services;
  providers: ProviderRegistry;
  clocks: TestClocks;
  /** The webhook sender: `tick()` claims and starts due deliveries, `idle()` waits for them. */
  delivery: WebhookDeliveryJob;
  /** Settles crypto orders from their chains (the test-chains and live-chains jobs; tests call it). */
  chainObserver: ChainObserver;
  /** Expires due orders and settles card charges left pending (the order-expiry and card-sync jobs; tests call it). */
  orderSweeps: PaymentOrderSweepService;
  /** Charges or opens the renewals that fell due (the billing job; tests and the renewals benchmark call it). */
  billing: SubscriptionBillingService;
  /** Runs each payment job once, now, in order (tests use it instead of waiting for timers; see jobs/job-schedule.ts). */
  runJobs(): Promise<void>;
  logger: Logger;
  close(): Promise<void>;
};

export type CobroOverrides = {
  clock?: Clock;
  logger?: Logger;
  /** Start the periodic jobs (jobs/job-schedule.ts). The server does; the command line does not. */
  jobs?: boolean;
  /** How webhook receivers are resolved and connected to (tests stand in for DNS and the network). */
  webhookNetwork?: { resolve?: Resolver; connect?: Connector };
};

/**
 * The composition root: config → database → providers → services → HTTP and jobs. With
 * src/wiring/ (what it loads first, and the payment services' graph in wiring/payments.ts), the
 * only place concrete classes are wired.
 */
export async function createCobro(config: Config, overrides: CobroOverrides = {}): Promise<Cobro> {
  const logger = overrides.logger ?? defaultLogger(config);
  const currencies = loadCurrencies(config);
  const clock = overrides.clock ?? systemClock;

  const database = await openDatabase({
    url: config.databaseUrl,
    sqliteSynchronous: config.sqliteSynchronous,
    pgPoolSize: config.pgPoolSize,
  });
  try {
    await database.migrate();
    await checkDurability(database, logger);
  } catch (error) {
    await database.close();
    throw error;
  }
  const uow = database.uow;
  const clocks = new TestClocks(clock, uow);
  await clocks.refresh();
  const clockFor = (who: { merchantId: string; mode: 'test' | 'live' }) => clocks.clockFor(who);
  const evmTokens = evmNetworks(config);
  const providers = createProviders(currencies, () => clock.now(), {
    processorStore: new KyselyTestProcessorStore(database.db, database.writeAlone),
    requiredConfirmations: requiredConfirmations(config),
    liveChains: liveChains(
      config,
      evmTokens,
      new KyselyChainScanStore(database.db, database.write),
      (code) => currencies.decimalsOf(code),
      logger,
    ),
    evmNetworks: evmTokens,
    stripe: { apiUrl: config.stripe.apiUrl, timeoutMs: config.stripe.timeoutMs, maxNetworkRetries: 2 },
    pix: { timeoutMs: config.pix.timeoutMs },
  });
  const addressPolicy: AddressPolicy = {
    allowPrivate: config.webhooks.allowPrivateNetworks,
    allowlist: new Set(config.webhooks.allowlist),
  };
  const urlPolicy = (url: string) => webhookUrlProblem(url, addressPolicy);
  const secretsKey = loadSecretsKey(config);
  const secretBox = new SecretBox(secretsKey);
  const signer = new LinkSigner(createHash('sha256').update('cobro payer links').update(secretsKey).digest());
  // The outbox: every event, and its webhook deliveries, in the transaction of its change.
  const webhooks = new WebhookService(clock);
  // One of each per process: the secrets service caches what it opened, and clears it on its own rotations.
  const webhookSecrets = new WebhookSecretService(uow, clock, secretBox, config.webhooks.secretOverlapSeconds * 1000);
  const webhookServices = {
    endpoints: new WebhookEndpointService(uow, clock, webhookSecrets, urlPolicy),
    events: new WebhookEventService(uow, clock),
    secrets: webhookSecrets,
  };

  // One card check for the checkout and the payer page: the same rules wherever a card is typed.
  const checkCard: CardValidator = (card, now) => {
    const checked = validateCard(
      { number: card.number, expiry: card.expiry, cvc: card.cvc, holderName: card.holderName },
      now,
    );
    return checked.ok ? { ok: true } : { ok: false, errors: checked.errors };
  };
  // Revocations committed by other processes reach the key cache before it is trusted.
  const credentialWatch = await database.watchCredentials({
    onDown: (error) =>
      logger.warn({ err: error }, 'key revocation listener lost: API keys are read on every request until it is back'),
    onLive: () => logger.info('key revocation listener is back: API keys are cached again'),
    onUnconfirmed: (processes) =>
      logger.warn({ processes }, 'key revoked, but not every running process confirmed it dropped the key in time'),
  });
  const merchants = new MerchantService(uow, clock, credentialWatch);
  const connectorAccess = new ConnectorAccess(uow, secretBox, providers.cardConnectors, providers.pixConnector);
  const paymentMethods = new PaymentMethodService(uow, currencies);
  // Live mode offers only what can settle: what the operator's chain sources watch and, for
  // cards and API Pix, a connector that takes the payment: a Stripe connection settles CARD (the
  // hosted checkout's card step is Stripe's Payment Element), an API Pix connection PIX.
  const availability = new MethodAvailabilityService(uow, {
    watches: (network, currency) => providers.liveChain.watches(network, currency),
    // BITCOIN_ESPLORA_URL is a mainnet source (docs/operations.md): a testnet key's addresses would never be seen paid.
    liveBitcoinNetwork: 'mainnet',
    connected: (type, merchantId, mode) => connectorAccess.isConnected(type, merchantId, mode),
  });
  await paymentMethods.installCatalog(DEFAULT_CATALOG);
  const {
    orders,
    orderMoves,
    paymentStart,
    orderSweeps,
    subscriptions,
    billing,
    chainObserver,
    orderCore,
    pixCharges,
    cardSubscriptions,
    cardRefunds,
    cardIntents,
    cardSettlement,
    cardCheckout,
  } = buildPayments({
    config,
    uow,
    clock,
    clocks,
    currencies,
    paymentMethods,
    availability,
    providers,
    events: webhooks,
    signer,
    checkCard,
    billingConcurrency: database.sideBySide,
    connectors: connectorAccess,
    logger,
  });
  const emails = new EmailSender(
    uow,
    config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : null,
    clock,
    logger,
  );
  /** One limit on guessing passwords and second factors, shared by every dashboard form that checks one. */
  const credentialThrottle = new CredentialThrottle(uow, clock);
  const services: Services = {
    merchants,
    profiles: new MerchantProfileService(uow, clock),
    paymentSettings: new PaymentSettingsService(merchants, paymentKeyChecks, TEST_MODE_DEFAULTS),
    paymentMethods,
    availability,
    currencies,
    orders,
    paymentStart,
    orderMoves,
    testHelpers: new TestHelperService(
      uow,
      orders,
      paymentStart,
      orderMoves,
      clocks,
      () => runJobs(),
      (merchantId, mode) => cardCheckout.servesCards(merchantId, mode),
    ),
    paymentLinks: new PaymentLinkService(uow, clockFor, currencies),
    preferences: new CheckoutPreferenceService(
      uow,
      clockFor,
      currencies,
      paymentMethods,
      availability,
      config.publicUrl,
      urlPolicy,
    ),
    webhooks: webhookServices,
    connectors: {
      connecting: new ConnectService(uow, clock, secretBox, connectorAccess, config.publicUrl),
      connections: new ConnectionReadService(uow, connectorAccess, config.publicUrl),
      checks: new ConnectionCheckService(uow, connectorAccess, config.publicUrl),
      removal: new ConnectionRemovalService(uow, clock, secretBox, connectorAccess, config.publicUrl),
      access: connectorAccess,
      events: new ConnectorEventService(uow, clock, connectorAccess, cardSettlement, {
        refunds: cardRefunds,
        disputes: new CardDisputeService(orderCore, (code) => currencies.decimalsOf(code)),
      }),
      intents: cardIntents,
      cards: cardCheckout,
      refunds: cardRefunds,
      pix: pixCharges,
      cardSubscriptions,
    },
    subscriptions,
    signer,
    // A separate key per purpose, each derived from the one secret, so no token can stand for another.
    csrfKey: createHash('sha256').update('cobro checkout csrf').update(secretsKey).digest(),
    publicUrl: config.publicUrl,
    idempotency: new IdempotencyService(uow, clockFor, config.idempotencyRetentionHours * 3_600_000),
    payerPortal: new PayerPortalService(
      uow,
      subscriptions,
      providers.card,
      checkCard,
      clocks,
      signer,
      config.publicUrl,
    ),
    mailbox: new TestMailboxService(uow),
    dashboard: {
      auth: new DashboardAuthService(uow, clock, secretBox, credentialThrottle),
      team: new TeamService(uow, clock, config.publicUrl, credentialThrottle),
      account: new AccountService(uow, clock, secretBox, config.publicUrl, credentialThrottle),
      audit: new AuditLogService(uow, clock),
      refusals: new AccessRefusalService(uow, clock),
      stats: new DashboardStatsService(uow, clock),
    },
  };

  const app = await buildServer(services, {
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimitPerSecond: config.rateLimitPerSecond,
    authFailuresPerMinute: config.authFailuresPerMinute,
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    smtpConfigured: config.smtpUrl !== null,
    ping: () => database.ping(),
    chains: () => providers.liveChain.status(),
  });
  const sendWebhook = createWebhookSender({
    policy: addressPolicy,
    options: { timeoutMs: config.webhooks.timeoutMs, maxResponseBytes: 64 * 1024 },
    ...overrides.webhookNetwork,
  });
  const sweeper = new IdempotencySweeper(services.idempotency, clock, logger);
  const delivery = new WebhookDeliveryJob(uow, webhookSecrets, sendWebhook, clock, logger, {
    retryDelaysSeconds: config.webhooks.retryDelaysSeconds,
    timeoutMs: config.webhooks.timeoutMs,
    maxResponseBytes: 64 * 1024,
    maxConcurrencyPerEndpoint: config.webhooks.maxConcurrencyPerEndpoint,
    maxHeld: 500,
  });
  const jobParts: JobParts = {
    orderSweeps,
    chainObserver,
    billing,
    emails,
    delivery,
    clocks,
    pixCharges,
    cardRefunds,
    cardCheckout,
  };
  const runJobs = () => runPaymentJobs(jobParts);
  const jobs = new JobRunner(logger);
  if (overrides.jobs !== false) {
    scheduleJobs(jobs, jobParts, {
      liveChains: providers.liveChain.networks().length > 0,
      liveChainsEveryMs: config.chains.pollMs,
    });
  }

  return {
    app,
    database,
    services,
    providers,
    clocks,
    delivery,
    chainObserver,
    orderSweeps,
    billing,
    runJobs,
    logger,
    async close() {
      // Runs already going finish; deliveries claimed but not started are given back.
      await jobs.stop();
      await delivery.stop();
      sendWebhook.close();
      sweeper.stop();
      await app.close();
      await credentialWatch.close();
      await database.close();
    },
  };
}
