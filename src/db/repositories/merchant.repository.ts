import type { Kysely, Selectable } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';
import type { ApiKey, Merchant, Mode } from '../../domain/merchants/merchant.ts';
import type { ApiKeyRepository } from '../../domain/repositories/api-key.repository.ts';
import type { MerchantRepository } from '../../domain/repositories/merchant.repository.ts';
import { KEY_REVOKED_CHANNEL } from '../credential-freshness.ts';
import type { ApiKeysTable, Database } from '../schema.ts';

export class KyselyMerchantRepository implements MerchantRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(merchant: Merchant): Promise<void> {
    await this.db
      .insertInto('merchants')
      .values({ id: merchant.id, name: merchant.name, created_at: BigInt(merchant.createdAt), settings: '{}' })
      .execute();
  }

  async get(id: string): Promise<Merchant | undefined> {
    const row = await this.db
      .selectFrom('merchants')
      .select(['id', 'name', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { id: row.id, name: row.name, createdAt: Number(row.created_at) } : undefined;
  }

  async getSettings(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('merchants').select('settings').where('id', '=', id).executeTakeFirst();
    return row?.settings;
  }

  async setSettings(id: string, settings: string): Promise<void> {
    await this.db.updateTable('merchants').set({ settings }).where('id', '=', id).execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('merchants')
      .select((eb) => eb.fn.countAll<bigint | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    key: row.key,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    secretHash: Buffer.from(row.secret_hash, 'hex'),
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    name: row.name ?? null,
    lastUsedAt: row.last_used_at === null || row.last_used_at === undefined ? null : Number(row.last_used_at),
  };
}

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(key: ApiKey): Promise<void> {
    await this.db
      .insertInto('api_keys')
      .values({
        key: key.key,
        merchant_id: key.merchantId,
        mode: key.mode,
        secret_hash: key.secretHash.toString('hex'),
        created_at: BigInt(key.createdAt),
        revoked_at: key.revokedAt === null ? null : BigInt(key.revokedAt),
        name: key.name ?? null,
      })
      .execute();
  }

  async get(key: string): Promise<ApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('key', '=', key).executeTakeFirst();
    return row ? toApiKey(row) : undefined;
  }

  async list(merchantId: string, mode: Mode): Promise<ApiKey[]> {
    // The api_keys_merchant index (merchant_id, mode); a merchant has a handful of keys.
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .orderBy('created_at', 'desc')
      .orderBy('key', 'desc')
      .execute();
    return rows.map(toApiKey);
  }

  async touch(key: string, at: number): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: BigInt(at) })
      .where('key', '=', key)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', BigInt(at))]))
      .execute();
  }

  /**
   * On PostgreSQL also announces the key on KEY_REVOKED_CHANNEL, so every listening process
   * drops it from its cache: PostgreSQL delivers the notification when this transaction
   * commits, and not at all if it rolls back. (SQLite processes notice through data_version.)
   */
  async revoke(key: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: BigInt(at) })
      .where('key', '=', key)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const exists = Number(result.numUpdatedRows) > 0 || (await this.get(key)) !== undefined;
    if (exists && this.db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`select pg_notify(${KEY_REVOKED_CHANNEL}, ${key})`.execute(this.db);
    }
    return exists;
  }
}
