import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import pino from 'pino';
import type { Config, EvmNetwork } from './config/config.ts';
import { ConfigError } from './config/config.ts';
import type { OpenDatabase } from './db/database.ts';
import { openDatabase } from './db/database.ts';
import { KyselyChainScanStore } from './db/repositories/chain-scan.repository.ts';
import { KyselyTestProcessorStore } from './db/repositories/test-card-processor.repository.ts';
import { CheckoutPreferenceService } from './domain/checkout-preferences/checkout-preference.service.ts';
import { CurrencyTable, DEFAULT_CURRENCIES } from './domain/currencies/currency.ts';
import { applyRatesFile } from './domain/currencies/rates-file.ts';
import { AccountService } from './domain/dashboard/account.service.ts';
import { AuditLogService } from './domain/dashboard/audit.ts';
import { DashboardAuthService } from './domain/dashboard/dashboard-auth.service.ts';
import { DashboardStatsService } from './domain/dashboard/stats.service.ts';
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
import type { ChainScanStore } from './domain/repositories/chain-scan.repository.ts';
import type { Clock } from './domain/shared/clock.ts';
import { systemClock } from './domain/shared/clock.ts';
import { LinkSigner } from './domain/shared/link-signer.ts';
import { SecretBox } from './domain/shared/secret-box.ts';
import { TestClocks } from './domain/shared/test-clocks.ts';
import type { CardValidator } from './domain/subscriptions/payer-portal.service.ts';
import { PayerPortalService } from './domain/subscriptions/payer-portal.service.ts';
import { PaymentLinkService } from './domain/subscriptions/payment-link.service.ts';
import { queueRenewalMail } from './domain/subscriptions/renewal-mail.ts';
import { SubscriptionCore } from './domain/subscriptions/subscription.core.ts';
import { SubscriptionService } from './domain/subscriptions/subscription.service.ts';
import { SubscriptionBillingService } from './domain/subscriptions/subscription-billing.service.ts';
import { SubscriptionLifecycleService } from './domain/subscriptions/subscription-lifecycle.service.ts';
import { WebhookService } from './domain/webhooks/webhook.service.ts';
import { WebhookEndpointService } from './domain/webhooks/webhook-endpoint.service.ts';
import { WebhookEventService } from './domain/webhooks/webhook-event.service.ts';
import { WebhookSecretService } from './domain/webhooks/webhook-secret.service.ts';
import { buildApp } from './http/app.ts';
import type { RouteDeps } from './http/routes/deps.ts';
import { sendQueuedEmails } from './jobs/email-sender.ts';
import { IdempotencySweeper } from './jobs/idempotency-sweeper.ts';
import { JobRunner } from './jobs/job-runner.ts';
import { WebhookDeliveryJob } from './jobs/webhook-delivery.ts';
import { validateCard } from './providers/card/card-number.ts';
import { EsploraWatcher, LiveChains } from './providers/crypto-onchain/chain-watchers.ts';
import type { EvmNetworkTokens } from './providers/crypto-onchain/crypto-onchain.provider.ts';
import { MAINNET_TOKENS } from './providers/crypto-onchain/crypto-onchain.provider.ts';
import { EsploraClient } from './providers/crypto-onchain/esplora.ts';
import { EvmRpcClient } from './providers/crypto-onchain/evm-rpc.ts';
import { EvmWatcher } from './providers/crypto-onchain/evm-watcher.ts';
import { smtpTransport } from './providers/email/smtp-transport.ts';
import { paymentKeyChecks } from './providers/payment-key-checks.ts';
import type { ProviderRegistry } from './providers/registry.ts';
import { createProviders } from './providers/registry.ts';
import { TEST_MODE_DEFAULTS } from './providers/test-mode-defaults.ts';
import type { AddressPolicy } from './providers/webhooks/address-policy.ts';
import { webhookUrlProblem } from './providers/webhooks/address-policy.ts';
import type { Connector, Resolver } from './providers/webhooks/http-sender.ts';
import { createWebhookSender } from './providers/webhooks/http-sender.ts';

export type Cobro = {
  app: FastifyInstance;
  database: OpenDatabase;
  services: RouteDeps;
  providers: ProviderRegistry;
  clocks: TestClocks;
  /** The webhook sender: `tick()` claims and starts due deliveries, `idle()` waits for them. */
  delivery: WebhookDeliveryJob;
  /** Settles crypto orders from their chains (a job; tests call it). */
  chainObserver: ChainObserver;
  /** Expires due orders and settles card charges left pending (the payments job; tests call it). */
  orderSweeps: PaymentOrderSweepService;
  /** Charges or opens the renewals that fell due (the payments job runs it; tests and the renewals benchmark call it). */
  billing: SubscriptionBillingService;
  /** Runs the periodic jobs once, now (tests use it instead of waiting for timers). */
  runJobs(): Promise<void>;
  logger: Logger;
  close(): Promise<void>;
};

export type CobroOverrides = {
  clock?: Clock;
  logger?: Logger;
  /** Start the periodic jobs (expiry, chain watcher, card sync). The server does; the command line does not. */
  jobs?: boolean;
  /** How webhook receivers are resolved and connected to (tests stand in for DNS and the network). */
  webhookNetwork?: { resolve?: Resolver; connect?: Connector };
};

/** The EVM networks' chain ids and token contracts: mainnet's, with the operator's overrides. */
function evmNetworks(config: Config): Record<string, EvmNetworkTokens> {
  const out: Record<string, EvmNetworkTokens> = {};
  for (const [network, mainnet] of Object.entries(MAINNET_TOKENS)) {
    const given = config.chains.evm[network as EvmNetwork];
    out[network] = {
      chainId: given?.chainId ?? mainnet.chainId,
      contracts: { ...mainnet.contracts, ...given?.tokens },
    };
  }
  return out;
}

/** Live mode's chain sources, from the operator's settings (never from a request). */
function liveChains(
  config: Config,
  networks: Record<string, EvmNetworkTokens>,
  store: ChainScanStore,
  decimalsOf: (currency: string) => number,
  logger: Logger,
): LiveChains {
  const { bitcoinEsploraUrl, pollMs, timeoutMs } = config.chains;
  const sources: Record<string, EsploraWatcher | EvmWatcher> = {};
  if (bitcoinEsploraUrl) {
    sources.bitcoin = new EsploraWatcher(new EsploraClient({ baseUrl: bitcoinEsploraUrl, timeoutMs }), {
      now: () => Date.now(),
      pollMs,
    });
  }
  for (const [network, given] of Object.entries(config.chains.evm)) {
    const tokens = networks[network];
    if (given.rpcUrl && tokens) {
      sources[network] = new EvmWatcher(new EvmRpcClient({ url: given.rpcUrl, timeoutMs }), store, {
        network,
        chainId: tokens.chainId,
        tokens: Object.fromEntries(Object.entries(tokens.contracts).map(([c, a]) => [c, a.toLowerCase()])),
        decimalsOf,
        // The next poll after a first failure, then twice as long each time, up to 10 minutes.
        backoffMs: (failures) => Math.min(pollMs * 2 ** (failures - 1) - pollMs / 2, 10 * 60_000),
        onReorg: (fork, from) =>
          logger.warn({ network, fork, from }, 'chain reorganised: transfers above the fork are scanned again'),
      });
    }
  }
  return new LiveChains(sources);
}

export function loadCurrencies(config: Pick<Config, 'ratesFile'>): CurrencyTable {
  if (!config.ratesFile) {
    return new CurrencyTable(DEFAULT_CURRENCIES);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(config.ratesFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(`RATES_FILE ${config.ratesFile} could not be read as JSON: ${(error as Error).message}`);
  }
  try {
    return new CurrencyTable(applyRatesFile(parsed));
  } catch (error) {
    throw new ConfigError(`RATES_FILE ${config.ratesFile}: ${(error as Error).message}`);
  }
}

/**
 * The key sealing webhook secrets: SECRETS_KEY, or a key file created on first start beside the
 * SQLite database (or in ./data for PostgreSQL). Several instances on one PostgreSQL must share
 * SECRETS_KEY.
 */
function loadSecretsKey(config: Config): Buffer {
  if (config.secretsKey) {
    return config.secretsKey;
  }
  const dir = config.databaseUrl.startsWith('sqlite:') ? dirname(config.databaseUrl.slice('sqlite:'.length)) : './data';
  const file = join(dir, 'cobro-secrets.key');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) {
    throw new ConfigError(`${file} must hold 32 bytes in base64`);
  }
  return key;
}

/** Warns once, loudly, when the database is set up so that an acknowledged payment could be lost. */
async function checkDurability(database: OpenDatabase, logger: Logger): Promise<void> {
  const settings = await database.durability();
  const safe =
    database.kind === 'sqlite'
      ? settings.journal_mode === 'wal' && (settings.synchronous === '2' || settings.synchronous === '3')
      : settings.synchronous_commit === 'on' && settings.fsync === 'on';
  if (!safe) {
    logger.warn(
      { durability: settings },
      'DURABILITY LOSS: acknowledged writes may be lost on power failure with these database settings',
    );
  }
}

/** Declined card attempts after which a checkout refuses more (card-testing defence); its subscription is then REJECTED. */
const MAX_CARD_DECLINES = 5;
/** How long an expired crypto order's address is still watched for a late payment (a day, as BTCPay Server keeps watching an expired invoice). */
const LATE_PAYMENT_WINDOW_MS = 24 * 3_600_000;

const REDACTED = '[Redacted]';
const SECRET_MEMBERS = ['apiSecret', 'api_secret', 'secret'] as const;
const SECRET_HEADERS = ['x-api-secret', 'authorization'] as const;

/** A shallow copy of `value` with `members` censored; an Error stays an Error, with its message and stack. */
function censored(value: object, members: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> =
    value instanceof Error
      ? Object.assign(Object.create(Object.getPrototypeOf(value)), value, {
          message: value.message,
          stack: value.stack,
        })
      : { ...value };
  for (const member of members) {
    copy[member] = REDACTED;
  }
  return copy;
}

/**
 * Censors what pino's `redact` paths `*.apiSecret`, `*.api_secret`, `*.secret`,
 * `req.headers["x-api-secret"]` and `req.headers.authorization` covered. pino's redaction
 * cloned every line and every per-request child logger, about 5 % of a request's CPU; this
 * looks one level into each member and copies only a line that holds such a member.
 */
export function scrubSecrets(line: Record<string, unknown>): Record<string, unknown> {
  let out = line;
  for (const key of Object.keys(line)) {
    const value = line[key];
    if (value === null || typeof value !== 'object') {
      continue;
    }
    let copy: Record<string, unknown> | null = null;
    const members = SECRET_MEMBERS.filter((m) => Object.hasOwn(value, m));
    if (members.length > 0) {
      copy = censored(value, members);
    }
    const headers = key === 'req' ? (value as { headers?: unknown }).headers : undefined;
    if (headers !== null && typeof headers === 'object') {
      const secretHeaders = SECRET_HEADERS.filter((h) => Object.hasOwn(headers, h));
      if (secretHeaders.length > 0) {
        copy ??= { ...value };
        copy.headers = censored(headers, secretHeaders);
      }
    }
    if (copy) {
      if (out === line) {
        out = { ...line };
      }
      out[key] = copy;
    }
  }
  return out;
}

/** How long a log line may wait in the buffer when traffic is too low to fill it. */
const LOG_FLUSH_INTERVAL_MS = 1_000;

/**
 * JSON lines on stdout, buffered: a write system call per line cost more than the rest of a
 * small request's logging, so lines are written 8 KB at a time (and at exit), and at least
 * every second, so that a quiet server's lines still show up promptly.
 */
function defaultLogger(config: Config): Logger {
  const logger = pino(
    {
      level: config.logLevel,
      // Belt and braces: nothing that looks like a credential is ever written.
      formatters: { log: scrubSecrets },
    },
    pino.destination({ sync: false, minLength: 8192 }),
  );
  setInterval(() => logger.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  return logger;
}

/** The composition root: config → database → services → HTTP. The only place concrete classes are wired. */
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
    requiredConfirmations: (network) =>
      config.chains.confirmations[network as keyof Config['chains']['confirmations']] ?? 2,
    liveChains: liveChains(
      config,
      evmTokens,
      new KyselyChainScanStore(database.db, database.write),
      (code) => currencies.get(code)?.decimals ?? 2,
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
  // Payment orders, a service a step; PaymentOrderCore is what the steps share.
  const orderCore = new PaymentOrderCore(clocks, providers, (repos, event) => webhooks.publish(repos, event));
  const settingsFor = async (merchantId: string, mode: Mode) =>
    parseSettings(await uow.read.merchants.getSettings(merchantId), mode, TEST_MODE_DEFAULTS);
  const orderOptions: PaymentOrderOptions = {
    cardOrderTtlMs: 15 * 60_000,
    cardLockMs: config.cardRecoveryAfterMs,
    maxCardDeclines: MAX_CARD_DECLINES,
    validateCard: checkCard,
  };
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
  const renewals = new PaymentRenewalService(
    uow,
    orderCore,
    currencies,
    paymentMethods,
    providers,
    settingsFor,
    orderMoves,
  );
  const orderSweeps = new PaymentOrderSweepService(uow, clocks, orderCore, providers, orderOptions, orderMoves);
  const subscriptionCore = new SubscriptionCore(clocks, (repos, event) => webhooks.publish(repos, event), {
    retryDays: config.subscriptions.retryDays,
    cancelWhenRetriesExhausted: config.subscriptions.cancelWhenRetriesExhausted,
    renewalNoticeMs: config.subscriptions.renewalNoticeHours * 3_600_000,
    maxCardDeclines: MAX_CARD_DECLINES,
    billingConcurrency: database.sideBySide,
  });
  const subscriptions = new SubscriptionService(uow, subscriptionCore);
  const lifecycle = new SubscriptionLifecycleService(subscriptionCore);
  const billing = new SubscriptionBillingService(uow, subscriptionCore);
  orderCore.useSubscriptions({
    forCheckout: (repos, pref, method, payer, now) => lifecycle.forCheckout(repos, pref, method, payer, now),
    firstCharge: (rec) => lifecycle.firstCharge(rec),
    onOrderClosed: (repos, order, token, now, asRead) => lifecycle.onOrderClosed(repos, order, token, now, asRead),
    onOrderFailed: (repos, order, now) => lifecycle.onOrderFailed(repos, order, now),
    mailRenewal: (repos, rec, order) =>
      queueRenewalMail(repos, rec, order, {
        publicUrl: config.publicUrl,
        signer,
        currencies,
        now: clocks.clockFor(rec).now().getTime(),
      }),
  });
  subscriptionCore.useCharger({
    openRenewal: (rec, periodIndex, attempt, dueAt) => renewals.openRenewal(rec, periodIndex, attempt, dueAt),
    chargeRenewal: (order, token, rec) => renewals.chargeRenewal(order, token, rec),
    getRenewal: (recId, periodIndex, attempt) => renewals.getRenewal(recId, periodIndex, attempt),
    expire: (order) => orderMoves.expire(order),
    withdraw: (order) => renewals.withdraw(order),
  });
  const mailTransport = config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : null;
  const chainObserver = new ChainObserver(
    uow,
    { test: providers.chain, live: providers.liveChain },
    (order, received) => orderMoves.confirm(order, received),
    {
      now: () => clock.now().getTime(),
      lateWindowMs: LATE_PAYMENT_WINDOW_MS,
      limit: 500,
      onChainError: (mode, network, error) =>
        logger.warn({ err: error, mode, network }, 'chain source failed: its open orders wait for the next poll'),
    },
  );
  // The payment jobs in their order; the periodic run leaves the live chains out (they have a
  // job of their own, at the operator's pace), runJobs (tests, test helpers) does them all.
  const paymentSteps = async (liveChains: boolean) => {
    await orderSweeps.syncPendingCards();
    await chainObserver.observe('test');
    if (liveChains) {
      await chainObserver.observe('live');
    }
    await orderSweeps.expireDue();
    await billing.runBilling();
    await sendQueuedEmails(uow, mailTransport, clock, logger);
  };
  const runJobs = () => paymentSteps(true);
  const services: RouteDeps = {
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

  const app = await buildApp(services, {
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimitPerSecond: config.rateLimitPerSecond,
    authFailuresPerMinute: config.authFailuresPerMinute,
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
  const jobs = new JobRunner(logger);
  if (overrides.jobs !== false) {
    jobs.add({ name: 'webhooks', everyMs: 100, run: () => delivery.tick() });
    jobs.add({ name: 'payments', everyMs: 1000, run: () => paymentSteps(false) });
    // Live chains are the outside world's nodes: asked at the operator's pace, and backed off alone when they fail.
    if (providers.liveChain.networks().length > 0) {
      jobs.add({ name: 'chains', everyMs: config.chains.pollMs, run: () => chainObserver.observe('live') });
    }
    jobs.add({ name: 'test-clocks', everyMs: 2000, run: () => clocks.refresh() });
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
