import type { DomainEvent } from '../events/event.ts';
import { PAYMENT_ORDER_DISPUTED } from '../events/event.ts';
import type { EventPublisher } from '../events/event-publisher.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import type { DeliveryTarget } from './webhook.ts';
import { newPendingDelivery } from './webhook.ts';

/** Checks a webhook URL when it is saved (scheme, host, and addresses that are decidable without DNS). */
export type WebhookUrlPolicy = (url: string) => string | null;

export const EVENT_TYPES: readonly string[] = [
  'PAYMENT_ORDER.OPENED',
  'PAYMENT_ORDER.CLOSED',
  'PAYMENT_ORDER.REJECTED',
  'PAYMENT_ORDER.EXPIRED',
  'PAYMENT_ORDER.REFUNDED',
  PAYMENT_ORDER_DISPUTED,
  'RECURRENT_PAYMENT.PENDING',
  'RECURRENT_PAYMENT.TRIALING',
  'RECURRENT_PAYMENT.ACTIVE',
  'RECURRENT_PAYMENT.UNPAID',
  'RECURRENT_PAYMENT.CANCELED',
  'RECURRENT_PAYMENT.COMPLETE',
  'RECURRENT_PAYMENT.INCOMPLETE',
  'RECURRENT_PAYMENT.REJECTED',
  'RECURRENT_PAYMENT.EXPIRED',
];

/**
 * The type of a test event (the dashboard's "Send test event"): delivered only to the endpoint
 * it was sent to, whatever its event_types, signed like any other. Not subscribable.
 */
export const TEST_EVENT_TYPE = 'WEBHOOK_ENDPOINT.TEST';

export const merchantSecretOwner = (merchantId: string, mode: Mode): string => `merchant:${merchantId}:${mode}`;

/** Checkouts whose webhook URL (or its absence) is kept in memory at most; then the memo starts over. */
const HOOK_URLS_KEPT = 10_000;

/**
 * The outbox fan-out. `publish` runs inside the transaction of the state change, so the event
 * and its deliveries commit together with the change, and the delivery job only ever sends what
 * is committed.
 *
 * Webhooks are one service a step: this one (publishing), WebhookSecretService (signing
 * secrets), WebhookEndpointService (the merchant's endpoints, test events), WebhookEventService
 * (events, their deliveries, redelivery).
 */
export class WebhookService implements EventPublisher {
  constructor(private readonly clock: Clock) {}

  async publish(repos: Repositories, event: DomainEvent): Promise<void> {
    const endpoints = await repos.events.insert(event);
    const now = this.clock.now().getTime();
    const targets: DeliveryTarget[] = [];
    if (event.checkoutPreferenceId) {
      const url = await this.statusChangesWebhook(repos, event.checkoutPreferenceId);
      if (url) {
        targets.push({ url, endpointId: null, secretOwner: merchantSecretOwner(event.merchantId, event.mode) });
      }
    }
    for (const e of endpoints > 0 ? await repos.webhookEndpoints.listEnabled(event.merchantId, event.mode) : []) {
      if (!e.eventTypes || e.eventTypes.includes(event.eventType)) {
        targets.push({ url: e.url, endpointId: e.id, secretOwner: e.id });
      }
    }
    for (const t of targets) {
      await repos.webhookDeliveries.insert(newPendingDelivery(event, t, now));
    }
  }

  /**
   * A checkout's own webhook URL. It is written when the checkout is created and never changed,
   * so what one read found holds for every later event of that checkout, in every process: each
   * payment (two events at least) then reads the checkout once instead of once per event.
   */
  private async statusChangesWebhook(repos: Repositories, preferenceId: string): Promise<string | null> {
    const known = this.hookUrls.get(preferenceId);
    if (known !== undefined) {
      return known;
    }
    const pref = await repos.preferences.getById(preferenceId);
    if (!pref) {
      return null;
    }
    if (this.hookUrls.size >= HOOK_URLS_KEPT) {
      this.hookUrls.clear();
    }
    this.hookUrls.set(preferenceId, pref.customUrls.statusChangesWebhook);
    return pref.customUrls.statusChangesWebhook;
  }

  private readonly hookUrls = new Map<string, string | null>();
}
