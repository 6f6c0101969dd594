import type { DeliveryProgress, WebhookAttempt, WebhookDelivery } from '../webhooks/webhook.ts';

/** Deliveries, a queue leased to one sender at a time, and the log of their attempts. */
export interface WebhookDeliveryRepository {
  insert(d: WebhookDelivery): Promise<void>;
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
  listForEvent(eventId: string): Promise<WebhookDelivery[]>;
  /** An endpoint's latest deliveries, newest first (the dashboard's endpoint page). */
  recentForEndpoint(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  attemptsForEvent(eventId: string): Promise<WebhookAttempt[]>;
  /** Puts a delivery back in the queue for one more attempt now. */
  requeue(id: string, now: number): Promise<void>;
}
