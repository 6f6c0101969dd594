import type { Kysely } from 'kysely';
import type { DomainEvent } from '../../domain/events/event.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { EventQueryRepository } from '../../domain/repositories/event-query.repository.ts';
import type { WebhookRepository } from '../../domain/repositories/webhook.repository.ts';
import type { Page, PageRequest } from '../../domain/shared/page.ts';
import type {
  DeliveryProgress,
  DeliveryStatus,
  SealedSecrets,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../domain/webhooks/webhook.ts';
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable } from '../schema.ts';
import { onlyEnabled } from './enabled-endpoints.ts';
import { toEvent } from './event.repository.ts';
import { leaseDue, unleased } from './leases.ts';
import { newestFirstPage } from './page.ts';
import { PreparedInsert, PreparedQuery } from './prepared.ts';

// What every event publishes through (see prepared.ts).
const ENABLED_ENDPOINTS = new PreparedQuery<{ merchantId: string; mode: string }, WebhookEndpointsTable>((db, $) =>
  onlyEnabled(
    db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('merchant_id', '=', $('merchantId'))
      .where('mode', '=', $('mode')),
  ),
);
const INSERT_DELIVERY = new PreparedInsert('webhook_deliveries');
// What every delivery attempt records.
const INSERT_ATTEMPT = new PreparedInsert('webhook_attempts');
const FINISH_ATTEMPT = new PreparedQuery<{
  id: string;
  status: string;
  attempts: bigint;
  nextAttemptAt: bigint;
  lastStatusCode: bigint | null;
  lastError: string | null;
  at: bigint;
}>((db, $) =>
  db
    .updateTable('webhook_deliveries')
    .set({
      status: $('status'),
      attempts: $('attempts'),
      next_attempt_at: $('nextAttemptAt'),
      last_status_code: $('lastStatusCode'),
      last_error: $('lastError'),
      locked_until: null,
      updated_at: $('at'),
    })
    .where('id', '=', $('id')),
);

const num = (v: bigint | null): number | null => (v === null ? null : Number(v));

function toEndpoint(r: WebhookEndpointsTable): WebhookEndpoint {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    mode: r.mode as Mode,
    url: r.url,
    eventTypes: r.event_types === null ? null : (JSON.parse(r.event_types) as string[]),
    enabled: Number(r.enabled) === 1,
    disabledReason: r.disabled_reason,
    description: r.description,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toDelivery(r: WebhookDeliveriesTable): WebhookDelivery {
  return {
    id: r.id,
    eventId: r.event_id,
    merchantId: r.merchant_id,
    mode: r.mode as Mode,
    endpointId: r.endpoint_id,
    secretOwner: r.secret_owner,
    url: r.url,
    status: r.status as DeliveryStatus,
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.next_attempt_at),
    lastStatusCode: num(r.last_status_code),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    ...(r.lease_token ? { leaseToken: r.lease_token } : {}),
  };
}

export class KyselyWebhookRepository implements WebhookRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertEndpoint(e: WebhookEndpoint): Promise<void> {
    await this.db
      .insertInto('webhook_endpoints')
      .values({
        id: e.id,
        merchant_id: e.merchantId,
        mode: e.mode,
        url: e.url,
        event_types: e.eventTypes === null ? null : JSON.stringify(e.eventTypes),
        enabled: e.enabled ? 1n : 0n,
        disabled_reason: e.disabledReason,
        description: e.description,
        created_at: BigInt(e.createdAt),
        updated_at: BigInt(e.updatedAt),
        deleted_at: null,
      })
      .execute();
  }

  async getEndpoint(merchantId: string, mode: Mode, id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toEndpoint(row) : undefined;
  }

  async listEndpoints(merchantId: string, mode: Mode, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    const q = this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('deleted_at', 'is', null);
    return newestFirstPage(q, page.cursor, page.limit, toEndpoint);
  }

  async enabledEndpoints(merchantId: string, mode: Mode): Promise<WebhookEndpoint[]> {
    const { rows } = await ENABLED_ENDPOINTS.execute(this.db, { merchantId, mode });
    return rows.map(toEndpoint);
  }

  async updateEndpoint(e: WebhookEndpoint): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({
        url: e.url,
        event_types: e.eventTypes === null ? null : JSON.stringify(e.eventTypes),
        enabled: e.enabled ? 1n : 0n,
        disabled_reason: e.disabledReason,
        description: e.description,
        updated_at: BigInt(e.updatedAt),
      })
      .where('id', '=', e.id)
      .execute();
  }

  async deleteEndpoint(merchantId: string, mode: Mode, id: string, at: number): Promise<boolean> {
    const r = await this.db
      .updateTable('webhook_endpoints')
      .set({ deleted_at: BigInt(at), enabled: 0n, updated_at: BigInt(at) })
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async disableEndpoint(id: string, reason: string, at: number): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ enabled: 0n, disabled_reason: reason, updated_at: BigInt(at) })
      .where('id', '=', id)
      .execute();
  }

  async getSecrets(owner: string): Promise<SealedSecrets | undefined> {
    const row = await this.db.selectFrom('webhook_secrets').selectAll().where('owner', '=', owner).executeTakeFirst();
    return row
      ? { secret: row.secret, previousSecret: row.previous_secret, previousExpiresAt: num(row.previous_expires_at) }
      : undefined;
  }

  async putSecrets(owner: string, s: SealedSecrets, at: number): Promise<void> {
    const values = {
      secret: s.secret,
      previous_secret: s.previousSecret,
      previous_expires_at: s.previousExpiresAt === null ? null : BigInt(s.previousExpiresAt),
      updated_at: BigInt(at),
    };
    await this.db
      .insertInto('webhook_secrets')
      .values({ owner, ...values })
      .onConflict((oc) => oc.column('owner').doUpdateSet(values))
      .execute();
  }

  async insertSecretsIfAbsent(owner: string, s: SealedSecrets, at: number): Promise<void> {
    await this.db
      .insertInto('webhook_secrets')
      .values({
        owner,
        secret: s.secret,
        previous_secret: s.previousSecret,
        previous_expires_at: s.previousExpiresAt === null ? null : BigInt(s.previousExpiresAt),
        updated_at: BigInt(at),
      })
      .onConflict((oc) => oc.column('owner').doNothing())
      .execute();
  }

  async insertDelivery(d: WebhookDelivery): Promise<void> {
    await INSERT_DELIVERY.execute(this.db, {
      id: d.id,
      event_id: d.eventId,
      merchant_id: d.merchantId,
      mode: d.mode,
      endpoint_id: d.endpointId,
      secret_owner: d.secretOwner,
      url: d.url,
      status: d.status,
      attempts: BigInt(d.attempts),
      next_attempt_at: BigInt(d.nextAttemptAt),
      locked_until: null,
      lease_token: null,
      last_status_code: null,
      last_error: null,
      created_at: BigInt(d.createdAt),
      updated_at: BigInt(d.updatedAt),
    });
  }

  async hasDue(now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'PENDING')
      .where('next_attempt_at', '<=', BigInt(now))
      .where(unleased(now))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async claimDue(now: number, limit: number, leaseMs: number): Promise<WebhookDelivery[]> {
    const due = this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'PENDING')
      .where('next_attempt_at', '<=', BigInt(now))
      .where(unleased(now))
      .orderBy('next_attempt_at')
      .limit(limit);
    const rows = await leaseDue(this.db, 'webhook_deliveries', due, now, leaseMs);
    return rows.map(toDelivery);
  }

  async recordAttempt(a: WebhookAttempt): Promise<void> {
    await INSERT_ATTEMPT.execute(this.db, {
      id: a.id,
      delivery_id: a.deliveryId,
      event_id: a.eventId,
      attempt: BigInt(a.attempt),
      url: a.url,
      started_at: BigInt(a.startedAt),
      duration_ms: BigInt(a.durationMs),
      status_code: a.statusCode === null ? null : BigInt(a.statusCode),
      error: a.error,
      response_excerpt: a.responseExcerpt,
    });
  }

  async finishAttempt(id: string, c: DeliveryProgress, at: number): Promise<void> {
    await FINISH_ATTEMPT.execute(this.db, {
      id,
      status: c.status,
      attempts: BigInt(c.attempts),
      nextAttemptAt: BigInt(c.nextAttemptAt),
      lastStatusCode: c.lastStatusCode === null ? null : BigInt(c.lastStatusCode),
      lastError: c.lastError,
      at: BigInt(at),
    });
  }

  async cancelPendingForEndpoint(endpointId: string, at: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'FAILED', last_error: 'endpoint disabled or deleted', updated_at: BigInt(at) })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'PENDING')
      .execute();
  }

  async deliveriesForEvent(eventId: string): Promise<WebhookDelivery[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toDelivery);
  }

  async recentDeliveriesForEndpoint(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    // The webhook_deliveries_endpoint index (0009).
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }

  async attemptsForEvent(eventId: string): Promise<WebhookAttempt[]> {
    const rows = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('started_at')
      .orderBy('attempt')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      deliveryId: r.delivery_id,
      eventId: r.event_id,
      attempt: Number(r.attempt),
      url: r.url,
      startedAt: Number(r.started_at),
      durationMs: Number(r.duration_ms),
      statusCode: num(r.status_code),
      error: r.error,
      responseExcerpt: r.response_excerpt,
    }));
  }

  async renewLease(id: string, leaseToken: string, until: number): Promise<boolean> {
    const r = await this.db
      .updateTable('webhook_deliveries')
      .set({ locked_until: BigInt(until) })
      .where('id', '=', id)
      .where('lease_token', '=', leaseToken)
      .where('status', '=', 'PENDING')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async releaseLeases(leases: readonly { id: string; leaseToken: string }[]): Promise<void> {
    for (const { id, leaseToken } of leases) {
      await this.db
        .updateTable('webhook_deliveries')
        .set({ locked_until: null, lease_token: null })
        .where('id', '=', id)
        .where('lease_token', '=', leaseToken)
        .execute();
    }
  }

  async releaseAllLeases(): Promise<number> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ locked_until: null, lease_token: null })
      .where('lease_token', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async requeue(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'PENDING', next_attempt_at: BigInt(now), locked_until: null, updated_at: BigInt(now) })
      .where('id', '=', id)
      .execute();
  }
}

export class KyselyEventQueryRepository implements EventQueryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(merchantId: string, mode: Mode, id: string): Promise<DomainEvent | undefined> {
    const row = await this.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .executeTakeFirst();
    return row ? toEvent(row) : undefined;
  }

  async list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: { eventType?: string; entityId?: string },
  ): Promise<Page<DomainEvent>> {
    let q = this.db.selectFrom('events').selectAll().where('merchant_id', '=', merchantId).where('mode', '=', mode);
    if (filter.eventType) {
      q = q.where('event_type', '=', filter.eventType);
    }
    if (filter.entityId) {
      q = q.where('entity_id', '=', filter.entityId);
    }
    return newestFirstPage(q, page.cursor, page.limit, toEvent);
  }
}
