import type { DomainEvent } from '../events/event.ts';
import type { Caller } from '../merchants/merchant.ts';
import type { Clock } from '../shared/clock.ts';
import { getOwned } from '../shared/owned.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { WebhookAttempt, WebhookDelivery } from './webhook.ts';

/** The merchant's events, with their deliveries and attempts, and redelivery. */
export class WebhookEventService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async getEvent(caller: Caller, id: string): Promise<DomainEvent> {
    return getOwned(id, 'event', (id) => this.uow.read.eventQueries.get(caller.merchantId, caller.mode, id));
  }

  listEvents(
    caller: Caller,
    page: PageRequest,
    filter: { eventType?: string; entityId?: string },
  ): Promise<Page<DomainEvent>> {
    return this.uow.read.eventQueries.list(caller.merchantId, caller.mode, page, filter);
  }

  async deliveries(
    caller: Caller,
    eventId: string,
  ): Promise<{ deliveries: WebhookDelivery[]; attempts: WebhookAttempt[] }> {
    const event = await this.getEvent(caller, eventId);
    return {
      deliveries: await this.uow.read.webhookDeliveries.listForEvent(event.id),
      attempts: await this.uow.read.webhookDeliveries.attemptsForEvent(event.id),
    };
  }

  /**
   * One more attempt, now, for every delivery of the event (same event id, so receivers can
   * dedupe), except to endpoints that are disabled (by the merchant or by a 410) or deleted.
   */
  async redeliver(caller: Caller, eventId: string): Promise<WebhookDelivery[]> {
    const event = await this.getEvent(caller, eventId);
    const now = this.clock.now().getTime();
    await this.uow.transaction(async (repos) => {
      for (const d of await repos.webhookDeliveries.listForEvent(event.id)) {
        if (d.endpointId !== null) {
          const endpoint = await repos.webhookEndpoints.get(caller.merchantId, caller.mode, d.endpointId);
          if (!endpoint?.enabled) {
            continue;
          }
        }
        await repos.webhookDeliveries.requeue(d.id, now);
      }
    });
    return this.uow.read.webhookDeliveries.listForEvent(event.id);
  }
}
