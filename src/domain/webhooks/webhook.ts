import type { DomainEvent } from '../events/event.ts';
import type { Mode } from '../merchants/merchant.ts';
import { newId } from '../shared/ids.ts';

export type WebhookEndpoint = {
  id: string;
  merchantId: string;
  mode: Mode;
  url: string;
  /** Null: every event type. */
  eventTypes: string[] | null;
  enabled: boolean;
  disabledReason: string | null;
  description: string | null;
  createdAt: number;
  updatedAt: number;
};

export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/** One event on its way to one URL; the row is also the queue entry. */
export type WebhookDelivery = {
  id: string;
  eventId: string;
  merchantId: string;
  mode: Mode;
  endpointId: string | null;
  /** Whose secrets sign it: the endpoint's id, or `merchant:<id>:<mode>` for preference webhooks. */
  secretOwner: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  /** Set on deliveries returned by `claimDue`: whose lease this is. */
  leaseToken?: string;
};

/** Where a delivery goes, and whose secrets sign it. */
export type DeliveryTarget = Pick<WebhookDelivery, 'url' | 'endpointId' | 'secretOwner'>;

/** A delivery of `event` to `target`, due at once: the one place a delivery's first values are spelled out. */
export function newPendingDelivery(
  event: Pick<DomainEvent, 'id' | 'merchantId' | 'mode'>,
  target: DeliveryTarget,
  now: number,
): WebhookDelivery {
  return {
    id: newId(),
    eventId: event.id,
    merchantId: event.merchantId,
    mode: event.mode,
    endpointId: target.endpointId,
    secretOwner: target.secretOwner,
    url: target.url,
    status: 'PENDING',
    attempts: 0,
    nextAttemptAt: now,
    lastStatusCode: null,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  };
}

export type WebhookAttempt = {
  id: string;
  deliveryId: string;
  eventId: string;
  attempt: number;
  url: string;
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
};

export type SealedSecrets = { secret: string; previousSecret: string | null; previousExpiresAt: number | null };

/** Where a delivery stands after an attempt. */
export type DeliveryProgress = {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatusCode: number | null;
  lastError: string | null;
};
