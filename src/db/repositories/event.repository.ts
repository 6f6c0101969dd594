import type { Kysely } from 'kysely';
import type { DomainEvent, EntityType } from '../../domain/events/event.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { EventRepository } from '../../domain/repositories/event.repository.ts';
import type { Database, EventsTable } from '../schema.ts';
import { onlyEnabled } from './enabled-endpoints.ts';
import { PreparedInsert } from './prepared.ts';

/**
 * Every change writes one (compiled once, see prepared.ts). The same statement counts the
 * merchant's enabled webhook endpoints (in the same snapshot), so that publishing the event of a
 * merchant without any (one that takes each checkout's own webhook URL) needs no second query.
 */
const INSERT = new PreparedInsert('events', (insert) =>
  insert.returning((eb) =>
    onlyEnabled(
      eb
        .selectFrom('webhook_endpoints')
        .select((w) => w.fn.countAll().as('n'))
        .whereRef('webhook_endpoints.merchant_id', '=', 'events.merchant_id')
        .whereRef('webhook_endpoints.mode', '=', 'events.mode'),
    ).as('endpoints'),
  ),
);

export function toEvent(row: EventsTable): DomainEvent {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    eventType: row.event_type,
    entityType: row.entity_type as EntityType,
    entityId: row.entity_id,
    checkoutPreferenceId: row.checkout_preference_id,
    sequence: Number(row.sequence),
    createdAt: Number(row.created_at),
    payload: row.payload,
  };
}

export class KyselyEventRepository implements EventRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(e: DomainEvent): Promise<number> {
    const inserted = await INSERT.first(this.db, {
      id: e.id,
      merchant_id: e.merchantId,
      mode: e.mode,
      event_type: e.eventType,
      entity_type: e.entityType,
      entity_id: e.entityId,
      checkout_preference_id: e.checkoutPreferenceId,
      sequence: BigInt(e.sequence),
      payload: e.payload,
      created_at: BigInt(e.createdAt),
    });
    return Number(inserted?.endpoints ?? 0n);
  }

  async listForEntity(entityId: string): Promise<DomainEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('entity_id', '=', entityId)
      .orderBy('sequence')
      .execute();
    return rows.map(toEvent);
  }

  async getById(id: string): Promise<DomainEvent | undefined> {
    const row = await this.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toEvent(row) : undefined;
  }

  async getByIds(ids: readonly string[]): Promise<DomainEvent[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows = await this.db.selectFrom('events').selectAll().where('id', 'in', ids).execute();
    return rows.map(toEvent);
  }
}
