import type { Logger } from 'pino';
import type { DomainEvent } from '../domain/events/event.ts';
import type { Clock } from '../domain/shared/clock.ts';
import { newId } from '../domain/shared/ids.ts';
import type { UnitOfWork } from '../domain/shared/unit-of-work.ts';
import { nextDelayMs, signatureHeader } from '../domain/webhooks/signing.ts';
import type { WebhookDelivery } from '../domain/webhooks/webhook.ts';
import type { WebhookSecretService } from '../domain/webhooks/webhook-secret.service.ts';
import type { SendResult } from '../providers/webhooks/http-sender.ts';
import { BatchedWrites } from './batched-writes.ts';

export type DeliveryOptions = {
  retryDelaysSeconds: readonly number[];
  timeoutMs: number;
  maxResponseBytes: number;
  /** Requests in flight to one endpoint (or one preference webhook URL) at most. */
  maxConcurrencyPerEndpoint: number;
  /** Deliveries this process holds (running or waiting for a slot) at most. */
  maxHeld: number;
};

/** Deliveries claimed per transaction. */
const CLAIM_BATCH = 100;

type Send = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

/**
 * Sends due webhook deliveries. Everything it needs is in the database (the delivery row is
 * the queue entry, leased while being sent), so a restart at any point loses nothing: a lease
 * that outlives its process lapses and the delivery is picked up again. Sending happens off the
 * request path, with a concurrency cap per endpoint, so a slow receiver never slows the API.
 */
export class WebhookDeliveryJob {
  private readonly slots = new Map<string, number>();
  private readonly waiting = new Map<string, WebhookDelivery[]>();
  private held = 0;
  /** When each claimed delivery was claimed (by object: a row claimed again is a new object). */
  private readonly claimedAt = new WeakMap<WebhookDelivery, number>();
  /** The event each claimed delivery sends, read with its batch. */
  private readonly events = new WeakMap<WebhookDelivery, DomainEvent>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  /**
   * Attempts are recorded a few at a time: at hundreds of attempts a second, one transaction
   * (and on SQLite one fsync) each was a third of the job's time. An attempt waits at most
   * 10 ms for company; a crash in that window re-sends it, as a crash before any commit would.
   */
  private readonly records: BatchedWrites;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly secrets: WebhookSecretService,
    private readonly send: Send,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: DeliveryOptions,
    private readonly random: () => number = Math.random,
  ) {
    this.records = new BatchedWrites(uow, { maxWaitMs: 10, maxBatch: 100 });
  }

  /** Claims what is due and starts sending it; returns without waiting for the sends. */
  async tick(): Promise<number> {
    let total = 0;
    // A full batch may mean more is due: claim again at once (up to what this process may
    // hold) rather than wait for the next tick, which would cap delivery at a batch per tick.
    for (;;) {
      const claimed = await this.claimBatch();
      total += claimed;
      if (claimed < CLAIM_BATCH) {
        return total;
      }
    }
  }

  private async claimBatch(): Promise<number> {
    if (this.stopped) {
      return 0;
    }
    const room = this.options.maxHeld - this.held;
    if (room <= 0) {
      return 0;
    }
    const now = this.clock.now().getTime();
    // Ticks run ten times a second: when nothing is due, a read on committed data is enough
    // (on SQLite a write transaction would cost an fsync every tick).
    if (!(await this.uow.read.webhookDeliveries.hasDue(now))) {
      return 0;
    }
    const claimed = await this.uow.transaction((repos) =>
      repos.webhookDeliveries.claimDue(now, Math.min(room, CLAIM_BATCH), this.leaseMs()),
    );
    // One read for the batch's events (a claim holds up to 100) instead of one per attempt. If
    // it fails, each attempt reads its own: the claimed deliveries are started either way.
    const events = new Map<string, DomainEvent>();
    try {
      for (const e of await this.uow.read.events.getByIds([...new Set(claimed.map((d) => d.eventId))])) {
        events.set(e.id, e);
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'reading the claimed webhook events failed; each attempt reads its own');
    }
    for (const d of claimed) {
      this.claimedAt.set(d, now);
      const event = events.get(d.eventId);
      if (event) {
        this.events.set(d, event);
      }
      this.held++;
      const key = d.endpointId ?? d.url;
      const queue = this.waiting.get(key) ?? [];
      queue.push(d);
      this.waiting.set(key, queue);
      this.pump(key);
    }
    return claimed.length;
  }

  /** Waits for every send in progress (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.all([...this.inFlight]);
    }
  }

  /**
   * Claims nothing more, gives back the deliveries claimed but not started (so the next process
   * sends them at once rather than after their lease), and waits for the sends in progress.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const unstarted = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.held -= unstarted.length;
    const leases = unstarted.flatMap((d) =>
      d.leaseToken === undefined ? [] : [{ id: d.id, leaseToken: d.leaseToken }],
    );
    if (leases.length > 0) {
      await this.uow.transaction((repos) => repos.webhookDeliveries.releaseLeases(leases));
    }
    await this.idle();
  }

  private pump(key: string): void {
    const queue = this.waiting.get(key);
    while (queue && queue.length > 0 && (this.slots.get(key) ?? 0) < this.options.maxConcurrencyPerEndpoint) {
      const d = queue.shift();
      if (!d) {
        break;
      }
      this.slots.set(key, (this.slots.get(key) ?? 0) + 1);
      // The slot bounds requests open to the receiver, so it is given back as soon as an answer
      // is in; recording the attempt (a commit: an fsync on SQLite) goes on without holding it.
      // Otherwise the commit's latency, not the receiver's, set each endpoint's delivery rate.
      let slotHeld = true;
      const freeSlot = () => {
        if (slotHeld) {
          slotHeld = false;
          this.slots.set(key, (this.slots.get(key) ?? 1) - 1);
          this.pump(key);
        }
      };
      const p = this.attempt(d, freeSlot)
        .catch((error: unknown) =>
          this.logger.error({ err: error, delivery: d.id }, 'webhook attempt failed to record'),
        )
        .finally(() => {
          this.held--;
          this.inFlight.delete(p);
          freeSlot();
        });
      this.inFlight.add(p);
    }
  }

  /** The lease covers the wait for a slot plus the request itself, and is renewed when the wait was long. */
  private leaseMs(): number {
    return Math.max(60_000, this.options.timeoutMs * 4);
  }

  /**
   * A delivery that waited for a slot past half its lease is re-leased before it is sent; if its
   * lease lapsed and another worker (or a later tick of this one) claimed it, this copy is dropped,
   * so each attempt is made once.
   */
  private async stillHeld(d: WebhookDelivery): Promise<boolean> {
    const now = this.clock.now().getTime();
    const leaseMs = this.leaseMs();
    const claimedAt = this.claimedAt.get(d) ?? now;
    if (d.leaseToken === undefined || now - claimedAt < leaseMs / 2) {
      return true;
    }
    const token = d.leaseToken;
    return this.uow.transaction((repos) => repos.webhookDeliveries.renewLease(d.id, token, now + leaseMs));
  }

  /** Sends one delivery and records the outcome; `sent` is called once the receiver has answered in full. */
  private async attempt(d: WebhookDelivery, sent: () => void): Promise<void> {
    if (!(await this.stillHeld(d))) {
      this.logger.debug({ delivery: d.id }, 'webhook delivery claimed elsewhere while it waited: not sent here');
      return;
    }
    const event = this.events.get(d) ?? (await this.uow.read.events.getById(d.eventId));
    if (!event) {
      return;
    }
    const secrets = await this.secrets.signingSecrets(d.secretOwner);
    const startedAt = this.clock.now().getTime();
    const timestamp = Math.floor(startedAt / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Cobro-Webhooks/1.0',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, event.id, timestamp, event.payload),
    };
    const result = await this.send(d.url, headers, event.payload);
    // An answer read whole leaves its connection in the pool for the next request. A failed
    // one (timeout, reset) keeps the slot until the attempt is recorded: its connection is
    // still being torn down on the receiver's side, and a new one at once would exceed the cap
    // there for a moment.
    if (result.error === null) {
      sent();
    }
    const attempts = d.attempts + 1;
    const now = this.clock.now().getTime();
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const gone = result.statusCode === 410;
    let delay = ok || gone ? null : nextDelayMs(this.options.retryDelaysSeconds, attempts, this.random);
    if (delay !== null && result.statusCode === 429 && result.retryAfterSeconds !== null) {
      delay = Math.max(delay, result.retryAfterSeconds * 1000);
    }
    const status = ok ? 'SUCCEEDED' : delay === null ? 'FAILED' : 'PENDING';
    const error =
      result.error ??
      (ok
        ? null
        : result.statusCode !== null && result.statusCode >= 300 && result.statusCode < 400
          ? 'redirect not followed'
          : null);
    await this.records.write(async (repos) => {
      await repos.webhookDeliveries.recordAttempt({
        id: newId(),
        deliveryId: d.id,
        eventId: d.eventId,
        attempt: attempts,
        url: d.url,
        startedAt,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        error,
        responseExcerpt: result.excerpt,
      });
      await repos.webhookDeliveries.finishAttempt(
        d.id,
        {
          status,
          attempts,
          nextAttemptAt: delay === null ? now : now + delay,
          lastStatusCode: result.statusCode,
          lastError: gone ? '410 Gone: the endpoint was disabled' : error,
        },
        now,
      );
      if (gone && d.endpointId) {
        await repos.webhookEndpoints.disable(d.endpointId, 'the receiver answered 410 Gone', now);
        await repos.webhookDeliveries.cancelPendingForEndpoint(d.endpointId, now);
      }
    });
  }
}
