import type { DomainEvent } from '../events/event.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { Page, PageRequest } from '../shared/page.ts';

export interface EventQueryRepository {
  get(merchantId: string, mode: Mode, id: string): Promise<DomainEvent | undefined>;
  list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: { eventType?: string; entityId?: string },
  ): Promise<Page<DomainEvent>>;
}
