import type { DomainEvent } from '../events/event.ts';

export interface EventRepository {
  /**
   * Records the event; answers how many webhook endpoints its merchant has enabled in its mode,
   * read by the same statement, so that publishing needs no endpoint query when there are none.
   */
  insert(event: DomainEvent): Promise<number>;
  listForEntity(entityId: string): Promise<DomainEvent[]>;
  getById(id: string): Promise<DomainEvent | undefined>;
  /** The events of these ids that exist, in no particular order. */
  getByIds(ids: readonly string[]): Promise<DomainEvent[]>;
}
