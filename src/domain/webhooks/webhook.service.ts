import type { DomainEvent } from '../events/event.ts';
import type { Caller, Mode } from '../merchants/merchant.ts';
import type { Repositories } from '../repositories.ts';
import type { Clock } from '../shared/clock.ts';
import { toWireTime } from '../shared/clock.ts';
import { AppError, notFound } from '../shared/errors.ts';
import { isWellFormedId, newId } from '../shared/ids.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { newWebhookSecret } from './signing.ts';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.ts';

/** Checks a webhook URL when it is saved (scheme, host, and addresses that are decidable without DNS). */
export type WebhookUrlPolicy = (url: string) => string | null;

export const EVENT_TYPES: readonly string[] = [
  'PAYMENT_ORDER.OPENED',
  'PAYMENT_ORDER.CLOSED',
  'PAYMENT_ORDER.REJECTED',
  'PAYMENT_ORDER.EXPIRED',
  'PAYMENT_ORDER.REFUNDED',
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

export type EndpointInput = { url: string; eventTypes: string[] | null; description: string | null };

/**
 * Webhook configuration and the outbox fan-out. `publish` runs inside the transaction of the
 * state change, so the event and its deliveries commit together with the change, and the
 * delivery job only ever sends what is committed.
 */
export class WebhookService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly urlPolicy: WebhookUrlPolicy,
    private readonly rotationOverlapMs: number,
  ) {}

  // ---- the outbox --------------------------------------------------------------------------

  async publish(repos: Repositories, event: DomainEvent): Promise<void> {
    const endpoints = await repos.events.insert(event);
    const now = this.clock.now().getTime();
    const targets: { url: string; endpointId: string | null; secretOwner: string }[] = [];
    if (event.checkoutPreferenceId) {
      const url = await this.statusChangesWebhook(repos, event.checkoutPreferenceId);
      if (url) {
        targets.push({ url, endpointId: null, secretOwner: merchantSecretOwner(event.merchantId, event.mode) });
      }
    }
    for (const e of endpoints > 0 ? await repos.webhooks.enabledEndpoints(event.merchantId, event.mode) : []) {
      if (!e.eventTypes || e.eventTypes.includes(event.eventType)) {
        targets.push({ url: e.url, endpointId: e.id, secretOwner: e.id });
      }
    }
    for (const t of targets) {
      await repos.webhooks.insertDelivery({
        id: newId(),
        eventId: event.id,
        merchantId: event.merchantId,
        mode: event.mode,
        endpointId: t.endpointId,
        secretOwner: t.secretOwner,
        url: t.url,
        status: 'PENDING',
        attempts: 0,
        nextAttemptAt: now,
        lastStatusCode: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
      });
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

  // ---- signing secrets ---------------------------------------------------------------------

  /** The secrets that sign for `owner` now: the current one, and the previous one during an overlap. */
  async signingSecrets(owner: string): Promise<string[]> {
    // Every delivery signs: a few seconds of cache saves a read and a decryption each time. A
    // rotation in this process clears it; one in another process is covered by the overlap
    // (the previous secret keeps signing alongside the new one).
    const cached = this.secretCache.get(owner);
    const nowMs = this.clock.now().getTime();
    if (cached && cached.until > nowMs) {
      return cached.secrets;
    }
    const fresh = await this.loadSigningSecrets(owner);
    this.secretCache.set(owner, { secrets: fresh, until: nowMs + 5_000 });
    if (this.secretCache.size > 10_000) {
      this.secretCache.clear();
    }
    return fresh;
  }

  private readonly secretCache = new Map<string, { secrets: string[]; until: number }>();

  private async loadSigningSecrets(owner: string): Promise<string[]> {
    let sealed = await this.uow.read.webhooks.getSecrets(owner);
    if (!sealed && owner.startsWith('merchant:')) {
      // The merchant never read its signing secret yet: make it now, so nothing goes unsigned.
      await this.uow.transaction((repos) => this.ensureSecret(repos, owner));
      sealed = await this.uow.read.webhooks.getSecrets(owner);
    }
    if (!sealed) {
      return [];
    }
    const now = this.clock.now().getTime();
    const secrets = [this.box.open(sealed.secret)];
    if (sealed.previousSecret && sealed.previousExpiresAt !== null && sealed.previousExpiresAt > now) {
      secrets.push(this.box.open(sealed.previousSecret));
    }
    return secrets;
  }

  private async ensureSecret(repos: Repositories, owner: string): Promise<string> {
    const existing = await repos.webhooks.getSecrets(owner);
    if (existing) {
      return this.box.open(existing.secret);
    }
    await repos.webhooks.insertSecretsIfAbsent(
      owner,
      { secret: this.box.seal(newWebhookSecret()), previousSecret: null, previousExpiresAt: null },
      this.clock.now().getTime(),
    );
    // Whoever inserted first wins; everyone signs with that one.
    const stored = await repos.webhooks.getSecrets(owner);
    if (!stored) {
      throw new Error(`signing secret for ${owner} could not be stored`);
    }
    return this.box.open(stored.secret);
  }

  private async rotate(repos: Repositories, owner: string): Promise<{ secret: string; previousExpiresAt: number }> {
    this.secretCache.delete(owner);
    const now = this.clock.now().getTime();
    const current = await repos.webhooks.getSecrets(owner);
    const secret = newWebhookSecret();
    const previousExpiresAt = now + this.rotationOverlapMs;
    await repos.webhooks.putSecrets(
      owner,
      {
        secret: this.box.seal(secret),
        previousSecret: current?.secret ?? null,
        previousExpiresAt: current ? previousExpiresAt : null,
      },
      now,
    );
    return { secret, previousExpiresAt };
  }

  /** GET /v1/webhook_settings: the secret that signs deliveries to status_changes_webhook URLs. */
  async merchantSigningSecret(caller: Caller): Promise<string> {
    const owner = merchantSecretOwner(caller.merchantId, caller.mode);
    return this.uow.transaction((repos) => this.ensureSecret(repos, owner));
  }

  async rotateMerchantSecret(caller: Caller): Promise<{ secret: string; previousExpiresAt: number }> {
    const owner = merchantSecretOwner(caller.merchantId, caller.mode);
    return this.uow.transaction(async (repos) => {
      await this.ensureSecret(repos, owner);
      return this.rotate(repos, owner);
    });
  }

  // ---- endpoints ---------------------------------------------------------------------------

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
    const secret = newWebhookSecret();
    await this.uow.transaction(async (repos) => {
      await repos.webhooks.insertEndpoint(endpoint);
      await repos.webhooks.putSecrets(
        endpoint.id,
        { secret: this.box.seal(secret), previousSecret: null, previousExpiresAt: null },
        now,
      );
      await also?.(repos, { endpoint, secret });
    });
    return { endpoint, secret };
  }

  async getEndpoint(caller: Caller, id: string): Promise<WebhookEndpoint> {
    const e = isWellFormedId(id)
      ? await this.uow.read.webhooks.getEndpoint(caller.merchantId, caller.mode, id)
      : undefined;
    if (!e) {
      throw notFound('webhook endpoint');
    }
    return e;
  }

  listEndpoints(caller: Caller, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.uow.read.webhooks.listEndpoints(caller.merchantId, caller.mode, page);
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
    await this.uow.transaction((repos) => repos.webhooks.updateEndpoint(next));
    return next;
  }

  async deleteEndpoint(caller: Caller, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.getEndpoint(caller, id);
    const now = this.clock.now().getTime();
    await this.uow.transaction(async (repos) => {
      await repos.webhooks.deleteEndpoint(caller.merchantId, caller.mode, id, now);
      await repos.webhooks.cancelPendingForEndpoint(id, now);
    });
    return endpoint;
  }

  async rotateEndpointSecret(caller: Caller, id: string): Promise<{ secret: string; previousExpiresAt: number }> {
    await this.getEndpoint(caller, id);
    return this.uow.transaction((repos) => this.rotate(repos, id));
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
    const delivery: WebhookDelivery = {
      id: newId(),
      eventId: id,
      merchantId: caller.merchantId,
      mode: caller.mode,
      endpointId: endpoint.id,
      secretOwner: endpoint.id,
      url: endpoint.url,
      status: 'PENDING',
      attempts: 0,
      nextAttemptAt: now,
      lastStatusCode: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.uow.transaction(async (repos) => {
      await repos.events.insert(event);
      await repos.webhooks.insertDelivery(delivery);
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
    const deliveries = await this.uow.read.webhooks.recentDeliveriesForEndpoint(endpoint.id, limit);
    const ids = new Set(deliveries.map((d) => d.id));
    const attempts = (
      await Promise.all(
        [...new Set(deliveries.map((d) => d.eventId))].map((e) => this.uow.read.webhooks.attemptsForEvent(e)),
      )
    )
      .flat()
      .filter((a) => ids.has(a.deliveryId));
    return { deliveries, attempts };
  }

  // ---- events and deliveries ----------------------------------------------------------------

  async getEvent(caller: Caller, id: string): Promise<DomainEvent> {
    const e = isWellFormedId(id) ? await this.uow.read.eventQueries.get(caller.merchantId, caller.mode, id) : undefined;
    if (!e) {
      throw notFound('event');
    }
    return e;
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
      deliveries: await this.uow.read.webhooks.deliveriesForEvent(event.id),
      attempts: await this.uow.read.webhooks.attemptsForEvent(event.id),
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
      for (const d of await repos.webhooks.deliveriesForEvent(event.id)) {
        if (d.endpointId !== null) {
          const endpoint = await repos.webhooks.getEndpoint(caller.merchantId, caller.mode, d.endpointId);
          if (!endpoint?.enabled) {
            continue;
          }
        }
        await repos.webhooks.requeue(d.id, now);
      }
    });
    return this.uow.read.webhooks.deliveriesForEvent(event.id);
  }
}
