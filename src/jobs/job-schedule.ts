import type { CardCheckoutService } from '../domain/connectors/card-checkout.service.ts';
import type { CardRefundService } from '../domain/connectors/card-refund.service.ts';
import type { PixChargeService } from '../domain/connectors/pix-charge.service.ts';
import type { ChainObserver } from '../domain/payment-orders/chain-observer.ts';
import type { PaymentOrderSweepService } from '../domain/payment-orders/payment-order-sweep.service.ts';
import type { TestClocks } from '../domain/shared/test-clocks.ts';
import type { SubscriptionBillingService } from '../domain/subscriptions/subscription-billing.service.ts';
import type { EmailSender } from './email-sender.ts';
import type { Job, JobRunner } from './job-runner.ts';
import type { WebhookDeliveryJob } from './webhook-delivery.ts';

/** What the periodic jobs run. */
export type JobParts = {
  orderSweeps: Pick<PaymentOrderSweepService, 'syncPendingCards' | 'expireDue'>;
  chainObserver: Pick<ChainObserver, 'observe'>;
  billing: Pick<SubscriptionBillingService, 'runBilling'>;
  emails: Pick<EmailSender, 'sendQueued'>;
  delivery: Pick<WebhookDeliveryJob, 'tick'>;
  clocks: Pick<TestClocks, 'refresh'>;
  pixCharges: Pick<PixChargeService, 'sync'>;
  cardRefunds: Pick<CardRefundService, 'sync'>;
  cardCheckout: Pick<CardCheckoutService, 'sync'>;
};

/**
 * The jobs that move payments along, in the order `runPaymentJobs` runs them: each runs on its
 * own timer with its own backoff, so one that fails holds up none of the others.
 */
export function paymentJobs(parts: JobParts, liveChainsEveryMs: number): Job[] {
  return [
    // Card charges the processor left pending, asked again.
    { name: 'card-sync', everyMs: 1000, run: () => parts.orderSweeps.syncPendingCards() },
    // Test mode's simulated chain: the payments it reports settle their orders.
    { name: 'test-chains', everyMs: 1000, run: () => parts.chainObserver.observe('test') },
    // Live chains are the outside world's nodes: asked at the operator's pace (CHAIN_POLL_SECONDS).
    { name: 'live-chains', everyMs: liveChainsEveryMs, run: () => parts.chainObserver.observe('live') },
    { name: 'order-expiry', everyMs: 1000, run: () => parts.orderSweeps.expireDue() },
    // PIX charges at merchants' PSPs (API Pix): made, checked every 20 s (a lost notification still
    // settles within a minute), removed when their order ended unpaid, refunds followed.
    { name: 'pix-sync', everyMs: 5000, run: () => parts.pixCharges.sync() },
    // Card refunds a merchant's processor left pending, asked about every 30 s until done or failed.
    { name: 'card-refund-sync', everyMs: 5000, run: () => parts.cardRefunds.sync() },
    // Card orders paid through a merchant's processor (Stripe) whose event never came, asked every
    // 20 s (a lost event still settles within a minute); ended orders' intents canceled there.
    { name: 'card-connector-sync', everyMs: 20_000, run: () => parts.cardCheckout.sync() },
    // Renewals that fell due charged or opened, finished plans completed, abandoned checkouts expired.
    { name: 'billing', everyMs: 1000, run: () => parts.billing.runBilling() },
    { name: 'email', everyMs: 1000, run: () => parts.emails.sendQueued() },
  ];
}

/** Every payment job once, one after the other, live chains included (tests and test helpers; a failure stops the run). */
export async function runPaymentJobs(parts: JobParts): Promise<void> {
  // One after the other, so no interval is needed.
  for (const job of paymentJobs(parts, 0)) {
    await job.run();
  }
}

/**
 * The periodic jobs of a process that runs jobs: webhook delivery, the payment jobs, and the
 * test clocks' refresh. The live chains' job only when a live chain is configured.
 */
export function scheduleJobs(
  runner: JobRunner,
  parts: JobParts,
  options: { liveChains: boolean; liveChainsEveryMs: number },
): void {
  runner.add({ name: 'webhooks', everyMs: 100, run: () => parts.delivery.tick() });
  for (const job of paymentJobs(parts, options.liveChainsEveryMs)) {
    if (job.name !== 'live-chains' || options.liveChains) {
      runner.add(job);
    }
  }
  runner.add({ name: 'test-clocks', everyMs: 2000, run: () => parts.clocks.refresh() });
}
