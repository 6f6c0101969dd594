import type { Kysely } from 'kysely';
import type { DomainEvent } from '../../domain/events/event.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { EventQueryRepository } from '../../domain/repositories/event-query.repository.ts';
import type { Page, PageRequest } from '../../domain/shared/page.ts';
import type { Database } from '../schema.ts';
import { toEvent } from './event.repository.ts';
import { newestFirstPage } from './page.ts';

export class KyselyEventQueryRepository implements EventQueryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(merchantId: string, mode: Mode, id: string): Promise<DomainEvent | undefined> {
    const row = await this.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .executeTakeFirst();
    return row ? toEvent(row) : undefined;
  }

  async list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: { eventType?: string; entityId?: string },
  ): Promise<Page<DomainEvent>> {
    let q = this.db.selectFrom('events').selectAll().where('merchant_id', '=', merchantId).where('mode', '=', mode);
    if (filter.eventType) {
      q = q.where('event_type', '=', filter.eventType);
    }
    if (filter.entityId) {
      q = q.where('entity_id', '=', filter.entityId);
    }
    return newestFirstPage(q, page.cursor, page.limit, toEvent);
  }
}
