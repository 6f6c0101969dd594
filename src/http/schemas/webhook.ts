import { Type } from 'typebox';
import type { DomainEvent } from '../../domain/events/event.ts';
import { toWireTime } from '../../domain/shared/clock.ts';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../domain/webhooks/webhook.ts';
import { Nullable } from './common.ts';

export const WebhookEndpointResponse = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    event_types: Nullable(Type.Array(Type.String())),
    enabled: Type.Boolean(),
    disabled_reason: Nullable(Type.String()),
    description: Nullable(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'WebhookEndpoint' },
);

export function toWebhookEndpointResponse(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    event_types: e.eventTypes,
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    description: e.description,
    created_at: toWireTime(e.createdAt),
    updated_at: toWireTime(e.updatedAt),
  };
}

export const EventResponse = Type.Object(
  {
    id: Type.String(),
    event_type: Type.String(),
    entity_type: Type.String(),
    entity_id: Type.String(),
    sequence: Type.Integer(),
    created_at: Type.String(),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'The webhook body, exactly as sent' }),
  },
  { $id: 'Event' },
);

export function toEventResponse(e: DomainEvent) {
  return {
    id: e.id,
    event_type: e.eventType,
    entity_type: e.entityType,
    entity_id: e.entityId,
    sequence: e.sequence,
    created_at: toWireTime(e.createdAt),
    data: JSON.parse(e.payload) as Record<string, unknown>,
  };
}

export const DeliveryResponse = Type.Object({
  id: Type.String(),
  endpoint_id: Nullable(Type.String()),
  url: Type.String(),
  status: Type.String({ description: 'PENDING, SUCCEEDED or FAILED' }),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Type.String()),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  attempt_log: Type.Array(
    Type.Object({
      attempt: Type.Integer(),
      started_at: Type.String(),
      duration_ms: Type.Integer(),
      status_code: Nullable(Type.Integer()),
      error: Nullable(Type.String()),
    }),
  ),
});

export function toDeliveryResponse(d: WebhookDelivery, attempts: WebhookAttempt[]) {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'PENDING' ? toWireTime(d.nextAttemptAt) : null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    attempt_log: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({
        attempt: a.attempt,
        started_at: toWireTime(a.startedAt),
        duration_ms: a.durationMs,
        status_code: a.statusCode,
        error: a.error,
      })),
  };
}
