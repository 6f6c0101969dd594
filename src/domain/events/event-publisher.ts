import type { Repositories } from '../repositories/repositories.ts';
import type { DomainEvent } from './event.ts';

/**
 * Writes an event and its webhook deliveries inside the caller's transaction (the outbox), so
 * that they commit with the state change they announce. Implemented by WebhookService.
 */
export interface EventPublisher {
  publish(repos: Repositories, event: DomainEvent): Promise<void>;
}
