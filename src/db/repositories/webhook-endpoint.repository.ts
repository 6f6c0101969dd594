import type { Kysely } from 'kysely';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { WebhookEndpointRepository } from '../../domain/repositories/webhook-endpoint.repository.ts';
import type { Page, PageRequest } from '../../domain/shared/page.ts';
import type { WebhookEndpoint } from '../../domain/webhooks/webhook.ts';
import type { Database, WebhookEndpointsTable } from '../schema.ts';
import { onlyEnabled } from './enabled-endpoints.ts';
import { newestFirstPage } from './page.ts';
import { PreparedQuery } from './prepared.ts';

// What every event publishes through (see prepared.ts).
const ENABLED_ENDPOINTS = new PreparedQuery<{ merchantId: string; mode: string }, WebhookEndpointsTable>((db, $) =>
  onlyEnabled(
    db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('merchant_id', '=', $('merchantId'))
      .where('mode', '=', $('mode')),
  ),
);

function toEndpoint(r: WebhookEndpointsTable): WebhookEndpoint {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    mode: r.mode as Mode,
    url: r.url,
    eventTypes: r.event_types === null ? null : (JSON.parse(r.event_types) as string[]),
    enabled: Number(r.enabled) === 1,
    disabledReason: r.disabled_reason,
    description: r.description,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The columns the merchant sets, which an insert and an update write alike. */
function settingColumns(e: WebhookEndpoint) {
  return {
    url: e.url,
    event_types: e.eventTypes === null ? null : JSON.stringify(e.eventTypes),
    enabled: e.enabled ? 1n : 0n,
    disabled_reason: e.disabledReason,
    description: e.description,
  };
}

export class KyselyWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(e: WebhookEndpoint): Promise<void> {
    await this.db
      .insertInto('webhook_endpoints')
      .values({
        id: e.id,
        merchant_id: e.merchantId,
        mode: e.mode,
        ...settingColumns(e),
        created_at: BigInt(e.createdAt),
        updated_at: BigInt(e.updatedAt),
        deleted_at: null,
      })
      .execute();
  }

  async get(merchantId: string, mode: Mode, id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toEndpoint(row) : undefined;
  }

  async list(merchantId: string, mode: Mode, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    const q = this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('deleted_at', 'is', null);
    return newestFirstPage(q, page.cursor, page.limit, toEndpoint);
  }

  async listEnabled(merchantId: string, mode: Mode): Promise<WebhookEndpoint[]> {
    const { rows } = await ENABLED_ENDPOINTS.execute(this.db, { merchantId, mode });
    return rows.map(toEndpoint);
  }

  async update(e: WebhookEndpoint): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ ...settingColumns(e), updated_at: BigInt(e.updatedAt) })
      .where('id', '=', e.id)
      .execute();
  }

  async delete(merchantId: string, mode: Mode, id: string, at: number): Promise<boolean> {
    const r = await this.db
      .updateTable('webhook_endpoints')
      .set({ deleted_at: BigInt(at), enabled: 0n, updated_at: BigInt(at) })
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async disable(id: string, reason: string, at: number): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ enabled: 0n, disabled_reason: reason, updated_at: BigInt(at) })
      .where('id', '=', id)
      .execute();
  }
}
