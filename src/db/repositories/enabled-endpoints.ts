import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * What makes a webhook endpoint one that events go to: enabled and not deleted. Both the events'
 * insert (which counts them) and the endpoint list publishing reads use it, so the two agree.
 */
export function onlyEnabled<O>(
  endpoints: SelectQueryBuilder<Database, 'webhook_endpoints', O>,
): SelectQueryBuilder<Database, 'webhook_endpoints', O> {
  return endpoints.where('webhook_endpoints.enabled', '=', 1n).where('webhook_endpoints.deleted_at', 'is', null);
}
