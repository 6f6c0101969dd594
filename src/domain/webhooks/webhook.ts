import type { DomainEvent } from '../events/event.ts';
import type { Mode } from '../merchants/merchant.ts';
import { newId } from '../shared/ids.ts';
import type { Page, PageRequest } from '../shared/page.ts';

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

export interface WebhookRepository {
  insertEndpoint(e: WebhookEndpoint): Promise<void>;
  getEndpoint(merchantId: string, mode: Mode, id: string): Promise<WebhookEndpoint | undefined>;
  listEndpoints(merchantId: string, mode: Mode, page: PageRequest): Promise<Page<WebhookEndpoint>>;
  enabledEndpoints(merchantId: string, mode: Mode): Promise<WebhookEndpoint[]>;
  updateEndpoint(e: WebhookEndpoint): Promise<void>;
  deleteEndpoint(merchantId: string, mode: Mode, id: string, at: number): Promise<boolean>;
  disableEndpoint(id: string, reason: string, at: number): Promise<void>;

  getSecrets(owner: string): Promise<SealedSecrets | undefined>;
  putSecrets(owner: string, secrets: SealedSecrets, at: number): Promise<void>;
  /** Stores `secrets` unless the owner has some already (two first uses at once keep one secret). */
  insertSecretsIfAbsent(owner: string, secrets: SealedSecrets, at: number): Promise<void>;

  insertDelivery(d: WebhookDelivery): Promise<void>;
  /** Whether any delivery is due (a cheap read, so an idle sender never opens a write transaction). */
  hasDue(now: number): Promise<boolean>;
  /** Leases up to `limit` due deliveries for `leaseMs` (skip-locked on PostgreSQL); returns them. */
  claimDue(now: number, limit: number, leaseMs: number): Promise<WebhookDelivery[]>;
  /** Extends the lease to `until` if `leaseToken` still holds it and the delivery is pending; false otherwise. */
  renewLease(id: string, leaseToken: string, until: number): Promise<boolean>;
  /** Gives back leases this process took but will not use (shutdown): the deliveries are due again at once. */
  releaseLeases(leases: readonly { id: string; leaseToken: string }[]): Promise<void>;
  /**
   * Gives back every lease (only when no other process can hold one: the start of the one process
   * serving a SQLite database, whose predecessor died holding them); returns how many.
   */
  releaseAllLeases(): Promise<number>;
  recordAttempt(attempt: WebhookAttempt): Promise<void>;
  finishAttempt(id: string, changes: DeliveryProgress, at: number): Promise<void>;
  cancelPendingForEndpoint(endpointId: string, at: number): Promise<void>;
  deliveriesForEvent(eventId: string): Promise<WebhookDelivery[]>;
  /** An endpoint's latest deliveries, newest first (the dashboard's endpoint page). */
  recentDeliveriesForEndpoint(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  attemptsForEvent(eventId: string): Promise<WebhookAttempt[]>;
  /** Puts a delivery back in the queue for one more attempt now. */
  requeue(id: string, now: number): Promise<void>;
}

export interface EventQueryRepository {
  get(merchantId: string, mode: Mode, id: string): Promise<DomainEvent | undefined>;
  list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: { eventType?: string; entityId?: string },
  ): Promise<Page<DomainEvent>>;
}
