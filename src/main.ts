import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config/config.ts';
import type { OpenDatabase } from './db/database.ts';
import { openDatabase } from './db/database.ts';
import { KyselyChainScanStore } from './db/repositories/chain-scan.repository.ts';
import { KyselyTestProcessorStore } from './db/repositories/test-card-processor.repository.ts';
import { CheckoutPreferenceService } from './domain/checkout-preferences/checkout-preference.service.ts';
import { AccountService } from './domain/dashboard/account.service.ts';
import { AuditLogService } from './domain/dashboard/audit.ts';
import { DashboardAuthService } from './domain/dashboard/dashboard-auth.service.ts';
import { DashboardStatsService } from './domain/dashboard/stats.ts';
import { TeamService } from './domain/dashboard/team.service.ts';
import { IdempotencyService } from './domain/idempotency/idempotency.service.ts';
import { MerchantService } from './domain/merchants/merchant.service.ts';
import type { Mode } from './domain/merchants/merchant.ts';
import { MerchantProfileService } from './domain/merchants/merchant-profile.ts';
import { parseSettings } from './domain/merchants/merchant-settings.ts';
import { PaymentSettingsService } from './domain/merchants/payment-settings.ts';
import { TestMailboxService } from './domain/notifications/test-mailbox.service.ts';
import { DEFAULT_CATALOG } from './domain/payment-methods/catalog.ts';
import { PaymentMethodService } from './domain/payment-methods/payment-method.service.ts';
import { ChainObserver } from './domain/payment-orders/chain-observer.ts';
import type { PaymentOrderOptions } from './domain/payment-orders/payment-order.core.ts';
import { PaymentOrderCore } from './domain/payment-orders/payment-order.core.ts';
import { PaymentOrderMoveService } from './domain/payment-orders/payment-order-move.service.ts';
import { PaymentOrderQueryService } from './domain/payment-orders/payment-order-query.service.ts';
import { PaymentOrderSweepService } from './domain/payment-orders/payment-order-sweep.service.ts';
import { PaymentRenewalService } from './domain/payment-orders/payment-renewal.service.ts';
import { PaymentStartService } from './domain/payment-orders/payment-start.service.ts';
import { TestHelperService } from './domain/payment-orders/test-helpers.service.ts';
import type { Clock } from './domain/shared/clock.ts';
import { systemClock } from './domain/shared/clock.ts';
import { LinkSigner } from './domain/shared/link-signer.ts';
import { SecretBox } from './domain/shared/secret-box.ts';
import { TestClocks } from './domain/shared/test-clocks.ts';
import type { CardValidator } from './domain/subscriptions/payer-portal.service.ts';
import { PayerPortalService } from './domain/subscriptions/payer-portal.service.ts';
import { PaymentLinkService } from './domain/subscriptions/payment-link.service.ts';
import { PaymentOrderEffectsService } from './domain/subscriptions/payment-order-effects.service.ts';
import { RenewalMailer } from './domain/subscriptions/renewal-mail.ts';
import { SubscriptionCore } from './domain/subscriptions/subscription.core.ts';
import { SubscriptionService } from './domain/subscriptions/subscription.service.ts';
import { SubscriptionBillingService } from './domain/subscriptions/subscription-billing.service.ts';
import { SubscriptionLifecycleService } from './domain/subscriptions/subscription-lifecycle.service.ts';
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

/** Declined card attempts after which a checkout refuses more (card-testing defence); its subscription is then REJECTED. */
const MAX_CARD_DECLINES = 5;
/** How long an expired crypto order's address is still watched for a late payment (a day, as BTCPay Server keeps watching an expired invoice). */
const LATE_PAYMENT_WINDOW_MS = 24 * 3_600_000;

/**
 * The composition root: config → database → providers → services → HTTP and jobs. The only
 * place concrete classes are wired; what each piece needs is in src/wiring/.
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
  const paymentMethods = new PaymentMethodService(
    uow,
    currencies,
    (method) => method.type !== 'CRYPTO_ONCHAIN' || providers.liveChain.watches(method.network?.id ?? ''),
  );
  await paymentMethods.installCatalog(DEFAULT_CATALOG);
  const settingsFor = async (merchantId: string, mode: Mode) =>
    parseSettings(await uow.read.merchants.getSettings(merchantId), mode, TEST_MODE_DEFAULTS);
  const orderOptions: PaymentOrderOptions = {
    cardOrderTtlMs: 15 * 60_000,
    cardLockMs: config.cardRecoveryAfterMs,
    maxCardDeclines: MAX_CARD_DECLINES,
    validateCard: checkCard,
  };
  // Subscriptions first: what a payment order's change sets off (its event, its subscription,
  // a renewal's e-mail) is PaymentOrderEffects, given to the payment orders when they are made.
  const subscriptionCore = new SubscriptionCore(clocks, webhooks, {
    retryDays: config.subscriptions.retryDays,
    cancelWhenRetriesExhausted: config.subscriptions.cancelWhenRetriesExhausted,
    renewalNoticeMs: config.subscriptions.renewalNoticeHours * 3_600_000,
    maxCardDeclines: MAX_CARD_DECLINES,
    billingConcurrency: database.sideBySide,
  });
  const orderEffects = new PaymentOrderEffectsService(
    webhooks,
    new SubscriptionLifecycleService(subscriptionCore),
    new RenewalMailer(clocks, currencies, { publicUrl: config.publicUrl, signer }),
  );
  // Payment orders, a service a step; PaymentOrderCore is what the steps share.
  const orderCore = new PaymentOrderCore(clocks, providers, orderEffects);
  const orders = new PaymentOrderQueryService(uow, currencies, paymentMethods);
  const orderMoves = new PaymentOrderMoveService(uow, orderCore, orders, providers);
  const paymentStart = new PaymentStartService(
    uow,
    orderCore,
    currencies,
    paymentMethods,
    providers,
    settingsFor,
    orderOptions,
    orderMoves,
  );
  const orderSweeps = new PaymentOrderSweepService(uow, clocks, orderCore, providers, orderOptions, orderMoves);
  // Then what subscriptions need from payment orders: their renewal orders (RenewalCharger).
  const renewals = new PaymentRenewalService(
    uow,
    orderCore,
    currencies,
    paymentMethods,
    providers,
    settingsFor,
    orderMoves,
  );
  const subscriptions = new SubscriptionService(uow, subscriptionCore, renewals);
  const billing = new SubscriptionBillingService(uow, subscriptionCore, renewals);
  const chainObserver = new ChainObserver(uow, { test: providers.chain, live: providers.liveChain }, orderMoves, {
    now: () => clock.now().getTime(),
    lateWindowMs: LATE_PAYMENT_WINDOW_MS,
    limit: 500,
    onChainError: (mode, network, error) =>
      logger.warn({ err: error, mode, network }, 'chain source failed: its open orders wait for the next poll'),
  });
  const emails = new EmailSender(
    uow,
    config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : null,
    clock,
    logger,
  );
  const services: Services = {
    merchants,
    profiles: new MerchantProfileService(uow, clock),
    paymentSettings: new PaymentSettingsService(merchants, paymentKeyChecks, TEST_MODE_DEFAULTS),
    paymentMethods,
    currencies,
    orders,
    paymentStart,
    orderMoves,
    testHelpers: new TestHelperService(uow, orders, paymentStart, orderMoves, clocks, () => runJobs()),
    paymentLinks: new PaymentLinkService(uow, clockFor, currencies),
    preferences: new CheckoutPreferenceService(uow, clockFor, currencies, paymentMethods, config.publicUrl, urlPolicy),
    webhooks: webhookServices,
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
      auth: new DashboardAuthService(uow, clock, secretBox),
      team: new TeamService(uow, clock, config.publicUrl),
      account: new AccountService(uow, clock, secretBox, config.publicUrl),
      audit: new AuditLogService(uow, clock),
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
  const jobParts: JobParts = { orderSweeps, chainObserver, billing, emails, delivery, clocks };
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
