import type { Kysely, Selectable } from 'kysely';
import type {
  Connection,
  ConnectorEventRecord,
  ConnectorProvider,
  PixConnectionSettings,
} from '../../domain/connectors/connection.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { ProcessorConnectionRepository } from '../../domain/repositories/processor-connection.repository.ts';
import type { ConnectorEventsTable, Database, ProcessorConnectionsTable } from '../schema.ts';

function toConnection(row: Selectable<ProcessorConnectionsTable>): Connection {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    provider: row.provider as ConnectorProvider,
    accountId: row.account_id,
    accountName: row.account_name,
    publishableKey: row.publishable_key,
    secretKeySealed: row.secret_key_sealed,
    webhookSecretSealed: row.webhook_secret_sealed,
    webhookId: row.webhook_id,
    webhookEndpointId: row.webhook_endpoint_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    lastEventAt: row.last_event_at === null ? null : Number(row.last_event_at),
    lastError: row.last_error,
    pix: row.settings === null ? null : (JSON.parse(row.settings) as PixConnectionSettings),
  };
}

function toEvent(row: Selectable<ConnectorEventsTable>): ConnectorEventRecord {
  return {
    provider: row.provider as ConnectorProvider,
    eventId: row.event_id,
    connectionId: row.connection_id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    type: row.type,
    objectId: row.object_id,
    outcome: row.outcome,
    receivedAt: Number(row.received_at),
  };
}

export class KyselyProcessorConnectionRepository implements ProcessorConnectionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertConnection(c: Connection): Promise<boolean> {
    const result = await this.db
      .insertInto('processor_connections')
      .values({
        id: c.id,
        merchant_id: c.merchantId,
        mode: c.mode,
        provider: c.provider,
        account_id: c.accountId,
        account_name: c.accountName,
        publishable_key: c.publishableKey,
        secret_key_sealed: c.secretKeySealed,
        webhook_secret_sealed: c.webhookSecretSealed,
        webhook_id: c.webhookId,
        webhook_endpoint_id: c.webhookEndpointId,
        created_at: BigInt(c.createdAt),
        updated_at: BigInt(c.updatedAt),
        last_event_at: c.lastEventAt === null ? null : BigInt(c.lastEventAt),
        last_error: c.lastError,
        settings: c.pix === null ? null : JSON.stringify(c.pix),
      })
      .onConflict((oc) => oc.columns(['merchant_id', 'mode', 'provider']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async getConnection(merchantId: string, mode: Mode, provider: ConnectorProvider): Promise<Connection | undefined> {
    const row = await this.db
      .selectFrom('processor_connections')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return row ? toConnection(row) : undefined;
  }

  async getConnectionByWebhookId(webhookId: string): Promise<Connection | undefined> {
    const row = await this.db
      .selectFrom('processor_connections')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .executeTakeFirst();
    return row ? toConnection(row) : undefined;
  }

  async listConnections(merchantId: string): Promise<Connection[]> {
    const rows = await this.db
      .selectFrom('processor_connections')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      // 'live' sorts before 'test'.
      .orderBy('mode')
      .orderBy('provider')
      .execute();
    return rows.map(toConnection);
  }

  async hasConnection(merchantId: string, mode: Mode, providers: readonly ConnectorProvider[]): Promise<boolean> {
    if (providers.length === 0) {
      return false;
    }
    const row = await this.db
      .selectFrom('processor_connections')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('provider', 'in', [...providers])
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteConnection(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('processor_connections').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async setConnectionError(id: string, lastError: string | null, at: number): Promise<void> {
    await this.db
      .updateTable('processor_connections')
      .set({ last_error: lastError, updated_at: BigInt(at) })
      .where('id', '=', id)
      .execute();
  }

  async getConnectionById(id: string): Promise<Connection | undefined> {
    const row = await this.db.selectFrom('processor_connections').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toConnection(row) : undefined;
  }

  async touchConnection(id: string, at: number, lastError?: string | null): Promise<void> {
    await this.db
      .updateTable('processor_connections')
      .set({
        last_event_at: BigInt(at),
        updated_at: BigInt(at),
        ...(lastError === undefined ? {} : { last_error: lastError }),
      })
      .where('id', '=', id)
      .execute();
  }

  async insertEvent(e: ConnectorEventRecord): Promise<boolean> {
    const result = await this.db
      .insertInto('connector_events')
      .values({
        provider: e.provider,
        event_id: e.eventId,
        connection_id: e.connectionId,
        merchant_id: e.merchantId,
        mode: e.mode,
        type: e.type,
        object_id: e.objectId,
        outcome: e.outcome,
        received_at: BigInt(e.receivedAt),
      })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async countFailedTries(preferenceId: string): Promise<number> {
    const row = await this.db
      .selectFrom('connector_events')
      .innerJoin('payment_orders', 'payment_orders.provider_ref', 'connector_events.object_id')
      .select((eb) => eb.fn.countAll<bigint | string>().as('n'))
      .where('payment_orders.checkout_preference_id', '=', preferenceId)
      .where('payment_orders.payment_method_type', '=', 'CARD')
      .where('connector_events.type', '=', 'payment_intent.payment_failed')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async setEventOutcome(provider: ConnectorProvider, eventId: string, outcome: string): Promise<void> {
    await this.db
      .updateTable('connector_events')
      .set({ outcome })
      .where('provider', '=', provider)
      .where('event_id', '=', eventId)
      .execute();
  }

  async getEvent(provider: ConnectorProvider, eventId: string): Promise<ConnectorEventRecord | undefined> {
    const row = await this.db
      .selectFrom('connector_events')
      .selectAll()
      .where('provider', '=', provider)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return row ? toEvent(row) : undefined;
  }
}
