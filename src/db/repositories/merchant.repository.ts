import type { Kysely } from 'kysely';
import type { ApiKeyRepository, MerchantRepository } from '../../domain/merchants/merchant.repository.ts';
import type { ApiKey, Merchant, Mode } from '../../domain/merchants/merchant.ts';
import type { Database } from '../schema.ts';

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
      })
      .execute();
  }

  async get(key: string): Promise<ApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('key', '=', key).executeTakeFirst();
    if (!row) {
      return undefined;
    }
    return {
      key: row.key,
      merchantId: row.merchant_id,
      mode: row.mode as Mode,
      secretHash: Buffer.from(row.secret_hash, 'hex'),
      createdAt: Number(row.created_at),
      revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    };
  }

  async revoke(key: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: BigInt(at) })
      .where('key', '=', key)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) {
      return true;
    }
    return (await this.get(key)) !== undefined;
  }
}
