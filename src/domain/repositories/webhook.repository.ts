import type { Mode } from '../merchants/merchant.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type {
  DeliveryProgress,
  SealedSecrets,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
} from '../webhooks/webhook.ts';

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
