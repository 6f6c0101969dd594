import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { CardCheckoutService } from '../domain/connectors/card-checkout.service.ts';
import { CardIntentService } from '../domain/connectors/card-intent.service.ts';
import { CardRefundService } from '../domain/connectors/card-refund.service.ts';
import { CardRenewalMailer } from '../domain/connectors/card-renewal-mail.ts';
import { CardSettlement } from '../domain/connectors/card-settlement.ts';
import { CardSubscriptionService } from '../domain/connectors/card-subscription.service.ts';
import type { ConnectorAccess } from '../domain/connectors/connector-access.ts';
import { PixChargeService } from '../domain/connectors/pix-charge.service.ts';
import type { CurrencyTable } from '../domain/currencies/currency.ts';
import type { EventPublisher } from '../domain/events/event-publisher.ts';
import type { Mode } from '../domain/merchants/merchant.ts';
import type { StoredSettings } from '../domain/merchants/merchant-settings.ts';
import { effectiveSettings, readStoredSettings } from '../domain/merchants/merchant-settings.ts';
import type { MethodAvailabilityService } from '../domain/payment-methods/method-availability.ts';
import type { PaymentMethodService } from '../domain/payment-methods/payment-method.service.ts';
import { ChainObserver } from '../domain/payment-orders/chain-observer.ts';
import type { OrderOpening } from '../domain/payment-orders/order-opening.ts';
import type { PaymentOrderOptions } from '../domain/payment-orders/payment-order.core.ts';
import { PaymentOrderCore } from '../domain/payment-orders/payment-order.core.ts';
import { PaymentOrderMoveService } from '../domain/payment-orders/payment-order-move.service.ts';
import { PaymentOrderQueryService } from '../domain/payment-orders/payment-order-query.service.ts';
import { PaymentOrderSweepService } from '../domain/payment-orders/payment-order-sweep.service.ts';
import { PaymentRenewalService } from '../domain/payment-orders/payment-renewal.service.ts';
import { PaymentStartService } from '../domain/payment-orders/payment-start.service.ts';
import type { Clock } from '../domain/shared/clock.ts';
import type { LinkSigner } from '../domain/shared/link-signer.ts';
import type { TestClocks } from '../domain/shared/test-clocks.ts';
import type { UnitOfWork } from '../domain/shared/unit-of-work.ts';
import type { CardValidator } from '../domain/subscriptions/payer-portal.service.ts';
import { PaymentOrderEffectsService } from '../domain/subscriptions/payment-order-effects.service.ts';
import { RenewalMailer } from '../domain/subscriptions/renewal-mail.ts';
import { SubscriptionCore } from '../domain/subscriptions/subscription.core.ts';
import { SubscriptionService } from '../domain/subscriptions/subscription.service.ts';
import { SubscriptionBillingService } from '../domain/subscriptions/subscription-billing.service.ts';
import { SubscriptionLifecycleService } from '../domain/subscriptions/subscription-lifecycle.service.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import { TEST_MODE_DEFAULTS } from '../providers/test-mode-defaults.ts';

/** Declined card attempts after which a checkout refuses more (card-testing defence); its subscription is then REJECTED. */
const MAX_CARD_DECLINES = 5;
/**
 * How long a card renewal waits for the payer to confirm it with their bank (3-D Secure, from
 * the mail) before the try counts as failed and the subscription's retries take over.
 */
const PAYER_CONFIRMATION_WAIT_MS = 3 * 24 * 3_600_000;
/** How long an expired crypto order's address is still watched for a late payment (a day, as BTCPay Server keeps watching an expired invoice). */
const LATE_PAYMENT_WINDOW_MS = 24 * 3_600_000;

export type PaymentParts = {
  config: Config;
  uow: UnitOfWork;
  clock: Clock;
  clocks: TestClocks;
  currencies: CurrencyTable;
  paymentMethods: PaymentMethodService;
  availability: MethodAvailabilityService;
  providers: ProviderRegistry;
  /** The outbox: every event, and its webhook deliveries, in the transaction of its change. */
  events: EventPublisher;
  signer: LinkSigner;
  /** One card check for the checkout and the payer page. */
  checkCard: CardValidator;
  /** How many subscriptions a billing run charges side by side (the database's concurrency). */
  billingConcurrency: number;
  /** The merchants' processor connections, opened for a call (an API Pix one makes PIX orders charges at the PSP). */
  connectors: ConnectorAccess;
  logger: Logger;
};

/**
 * Payment orders and subscriptions, in the order they need each other: subscriptions first,
 * since what a payment order's change sets off (its event, its subscription, a renewal's
 * e-mail) is PaymentOrderEffects, given to the payment orders when they are made; then the
 * payment orders, a service a step around PaymentOrderCore; then what subscriptions need from
 * payment orders (their renewal orders, RenewalCharger); last, the chain observer that settles
 * crypto orders.
 */
export function buildPayments(p: PaymentParts) {
  const { config, uow, clocks, currencies, paymentMethods, availability, providers, events } = p;
  const settingsFor = async (merchantId: string, mode: Mode, stored?: StoredSettings | null) =>
    effectiveSettings(
      stored ?? readStoredSettings(await uow.read.merchants.getSettings(merchantId)),
      mode,
      TEST_MODE_DEFAULTS,
    );
  const orderOptions: PaymentOrderOptions = {
    cardOrderTtlMs: 15 * 60_000,
    cardLockMs: config.cardRecoveryAfterMs,
    maxCardDeclines: MAX_CARD_DECLINES,
    validateCard: p.checkCard,
  };
  const subscriptionCore = new SubscriptionCore(clocks, events, {
    retryDays: config.subscriptions.retryDays,
    cancelWhenRetriesExhausted: config.subscriptions.cancelWhenRetriesExhausted,
    renewalNoticeMs: config.subscriptions.renewalNoticeHours * 3_600_000,
    maxCardDeclines: MAX_CARD_DECLINES,
    billingConcurrency: p.billingConcurrency,
  });
  const orderEffects = new PaymentOrderEffectsService(
    events,
    new SubscriptionLifecycleService(subscriptionCore),
    new RenewalMailer(clocks, currencies, { publicUrl: config.publicUrl, signer: p.signer }),
  );
  const orderCore = new PaymentOrderCore(clocks, providers, orderEffects);
  const orders = new PaymentOrderQueryService(uow, currencies, paymentMethods, availability, (merchantId, mode) =>
    p.connectors.hasCardConnection(merchantId, mode),
  );
  // PIX charges record money received through the moves (confirm), and the moves refund through them.
  const pixCharges = new PixChargeService(uow, p.clock, p.connectors, orderCore, (order, received) =>
    orderMoves.confirm(order, received),
  );
  // Card orders paid through a merchant's processor connection are refunded there.
  const cardRefunds = new CardRefundService(uow, p.clock, p.connectors, orderCore);
  const orderMoves = new PaymentOrderMoveService(uow, orderCore, orders, providers, [pixCharges, cardRefunds]);
  // Subscriptions whose card is kept at the merchant's Stripe account renew through it.
  const cardSubscriptions = new CardSubscriptionService(
    uow,
    p.connectors,
    orderCore,
    new CardRenewalMailer(currencies, { publicUrl: config.publicUrl, signer: p.signer }),
    p.signer,
    { payerWaitMs: PAYER_CONFIRMATION_WAIT_MS, recheckMs: 5 * 60_000 },
  );
  // Card payments through a merchant's own processor (Stripe): one intent per order, closed by one rule.
  const cardIntents = new CardIntentService(uow, p.connectors, orderCore, cardSubscriptions);
  const cardSettlement = new CardSettlement(orderCore);
  const cardCheckout = new CardCheckoutService(uow, p.clock, p.connectors, cardIntents, cardSettlement, orderCore, {
    maxFailedTries: MAX_CARD_DECLINES,
    batch: 100,
    // As long as a late crypto payment is still watched for.
    endedWindowMs: LATE_PAYMENT_WINDOW_MS,
  });
  const opening: OrderOpening = {
    uow,
    core: orderCore,
    currencies,
    methods: paymentMethods,
    availability,
    providers,
    pixCharges,
    settingsFor,
    cardConnected: (merchantId, mode) => cardCheckout.servesCards(merchantId, mode),
    failedCardTries: (preferenceId) => cardCheckout.failedTries(preferenceId),
  };
  const paymentStart = new PaymentStartService(opening, orderOptions, orderMoves);
  const orderSweeps = new PaymentOrderSweepService(
    uow,
    clocks,
    orderCore,
    providers,
    orderOptions,
    orderMoves,
    (m, mode) => cardCheckout.servesCards(m, mode),
  );
  const renewals = new PaymentRenewalService(opening, orderMoves, cardSubscriptions);
  const subscriptions = new SubscriptionService(uow, subscriptionCore, renewals);
  const billing = new SubscriptionBillingService(uow, subscriptionCore, renewals);
  const chainObserver = new ChainObserver(uow, { test: providers.chain, live: providers.liveChain }, orderMoves, {
    now: () => p.clock.now().getTime(),
    lateWindowMs: LATE_PAYMENT_WINDOW_MS,
    limit: 500,
    onChainError: (mode, network, error) =>
      p.logger.warn({ err: error, mode, network }, 'chain source failed: its open orders wait for the next poll'),
  });
  return {
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
  };
}
