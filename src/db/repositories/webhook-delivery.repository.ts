import type { Kysely } from 'kysely';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { WebhookDeliveryRepository } from '../../domain/repositories/webhook-delivery.repository.ts';
import type {
  DeliveryProgress,
  DeliveryStatus,
  WebhookAttempt,
  WebhookDelivery,
} from '../../domain/webhooks/webhook.ts';
import type { Database, WebhookDeliveriesTable } from '../schema.ts';
import { leaseDue, unleased } from './leases.ts';
import { PreparedInsert, PreparedQuery } from './prepared.ts';

// What every event queues for each of its endpoints (see prepared.ts).
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

export class KyselyWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(d: WebhookDelivery): Promise<void> {
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

  async listForEvent(eventId: string): Promise<WebhookDelivery[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toDelivery);
  }

  async recentForEndpoint(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
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
