import type { DomainEvent } from '../events/event.ts';
import type { Caller } from '../merchants/merchant.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import { toWireTime } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { getOwned } from '../shared/owned.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { WebhookUrlPolicy } from './webhook.service.ts';
import { EVENT_TYPES, TEST_EVENT_TYPE } from './webhook.service.ts';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.ts';
import { newPendingDelivery } from './webhook.ts';
import type { WebhookSecretService } from './webhook-secret.service.ts';

export type EndpointInput = { url: string; eventTypes: string[] | null; description: string | null };

/** The merchant's webhook endpoints: created with their secret, changed, deleted, sent a test event. */
export class WebhookEndpointService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly secrets: WebhookSecretService,
    private readonly urlPolicy: WebhookUrlPolicy,
  ) {}

  private validate(input: Partial<EndpointInput>): void {
    const messages: string[] = [];
    if (input.url !== undefined) {
      const problem = this.urlPolicy(input.url);
      if (problem) {
        messages.push(`url ${problem}`);
      }
    }
    for (const t of input.eventTypes ?? []) {
      if (!EVENT_TYPES.includes(t)) {
        messages.push(`event_types: ${t} is not an event type (one of ${EVENT_TYPES.join(', ')})`);
      }
    }
    if (messages.length > 0) {
      throw new AppError('WRONG_INPUT', messages);
    }
  }

  async createEndpoint(
    caller: Caller,
    input: EndpointInput,
    also?: (repos: Repositories, created: { endpoint: WebhookEndpoint; secret: string }) => Promise<void>,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    this.validate(input);
    const now = this.clock.now().getTime();
    const endpoint: WebhookEndpoint = {
      id: newId(),
      merchantId: caller.merchantId,
      mode: caller.mode,
      url: input.url,
      eventTypes: input.eventTypes ? [...new Set(input.eventTypes)] : null,
      enabled: true,
      disabledReason: null,
      description: input.description,
      createdAt: now,
      updatedAt: now,
    };
    const secret = await this.uow.transaction(async (repos) => {
      await repos.webhookEndpoints.insert(endpoint);
      const first = await this.secrets.createFirst(repos, endpoint.id, now);
      await also?.(repos, { endpoint, secret: first });
      return first;
    });
    return { endpoint, secret };
  }

  async getEndpoint(caller: Caller, id: string): Promise<WebhookEndpoint> {
    return getOwned(id, 'webhook endpoint', (id) =>
      this.uow.read.webhookEndpoints.get(caller.merchantId, caller.mode, id),
    );
  }

  listEndpoints(caller: Caller, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.uow.read.webhookEndpoints.list(caller.merchantId, caller.mode, page);
  }

  async updateEndpoint(
    caller: Caller,
    id: string,
    patch: { url?: string; eventTypes?: string[] | null; enabled?: boolean; description?: string | null },
  ): Promise<WebhookEndpoint> {
    this.validate({ ...(patch.url !== undefined ? { url: patch.url } : {}), eventTypes: patch.eventTypes ?? null });
    const current = await this.getEndpoint(caller, id);
    const next: WebhookEndpoint = {
      ...current,
      ...(patch.url !== undefined ? { url: patch.url } : {}),
      ...(patch.eventTypes !== undefined
        ? { eventTypes: patch.eventTypes ? [...new Set(patch.eventTypes)] : null }
        : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.enabled !== undefined
        ? { enabled: patch.enabled, disabledReason: patch.enabled ? null : 'disabled by the merchant' }
        : {}),
      updatedAt: this.clock.now().getTime(),
    };
    await this.uow.transaction((repos) => repos.webhookEndpoints.update(next));
    return next;
  }

  async deleteEndpoint(caller: Caller, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.getEndpoint(caller, id);
    const now = this.clock.now().getTime();
    await this.uow.transaction(async (repos) => {
      await repos.webhookEndpoints.delete(caller.merchantId, caller.mode, id, now);
      await repos.webhookDeliveries.cancelPendingForEndpoint(id, now);
    });
    return endpoint;
  }

  async rotateEndpointSecret(caller: Caller, id: string): Promise<{ secret: string; previousExpiresAt: number }> {
    await this.getEndpoint(caller, id);
    return this.uow.transaction((repos) => this.secrets.rotate(repos, id));
  }

  /**
   * A test event for one endpoint: recorded as an event of type TEST_EVENT_TYPE with one
   * delivery, to that endpoint only, which the delivery job sends, signs and logs like any
   * other (so it can be inspected and redelivered). A disabled endpoint is refused.
   */
  async sendTestEvent(caller: Caller, endpointId: string): Promise<{ event: DomainEvent; delivery: WebhookDelivery }> {
    const endpoint = await this.getEndpoint(caller, endpointId);
    if (!endpoint.enabled) {
      throw new AppError('CONFLICT', ['webhook endpoint is disabled: enable it before sending a test event']);
    }
    const now = this.clock.now().getTime();
    const id = newId();
    const event: DomainEvent = {
      id,
      merchantId: caller.merchantId,
      mode: caller.mode,
      eventType: TEST_EVENT_TYPE,
      entityType: 'WEBHOOK_ENDPOINT',
      entityId: endpoint.id,
      checkoutPreferenceId: null,
      sequence: 0,
      createdAt: now,
      payload: JSON.stringify({
        id,
        event_type: TEST_EVENT_TYPE,
        entity_type: 'WEBHOOK_ENDPOINT',
        entity_id: endpoint.id,
        webhook_endpoint_id: endpoint.id,
        test: true,
        created_at: toWireTime(now),
      }),
    };
    const delivery = newPendingDelivery(
      event,
      { url: endpoint.url, endpointId: endpoint.id, secretOwner: endpoint.id },
      now,
    );
    await this.uow.transaction(async (repos) => {
      await repos.events.insert(event);
      await repos.webhookDeliveries.insert(delivery);
    });
    return { event, delivery };
  }

  /** An endpoint's latest deliveries, newest first, with their events' attempts. */
  async endpointDeliveries(
    caller: Caller,
    endpointId: string,
    limit: number,
  ): Promise<{ deliveries: WebhookDelivery[]; attempts: WebhookAttempt[] }> {
    const endpoint = await this.getEndpoint(caller, endpointId);
    const deliveries = await this.uow.read.webhookDeliveries.recentForEndpoint(endpoint.id, limit);
    const ids = new Set(deliveries.map((d) => d.id));
    const attempts = (
      await Promise.all(
        [...new Set(deliveries.map((d) => d.eventId))].map((e) => this.uow.read.webhookDeliveries.attemptsForEvent(e)),
      )
    )
      .flat()
      .filter((a) => ids.has(a.deliveryId));
    return { deliveries, attempts };
  }
}
