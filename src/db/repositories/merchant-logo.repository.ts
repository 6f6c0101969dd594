import type { Kysely } from 'kysely';
import type { LogoFile, LogoType } from '../../domain/merchants/logo-image.ts';
import type { MerchantLogoRepository } from '../../domain/repositories/merchant-logo.repository.ts';
import type { Database } from '../schema.ts';

export class KyselyMerchantLogoRepository implements MerchantLogoRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async put(logo: LogoFile): Promise<void> {
    await this.db
      .insertInto('merchant_logos')
      .values({
        merchant_id: logo.merchantId,
        sha256: logo.sha256,
        content_type: logo.contentType,
        width: BigInt(logo.width),
        height: BigInt(logo.height),
        data: Buffer.from(logo.bytes).toString('base64'),
        created_at: BigInt(logo.createdAt),
      })
      // Same merchant, same bytes: the row already says everything.
      .onConflict((oc) => oc.columns(['merchant_id', 'sha256']).doNothing())
      .execute();
  }

  async get(merchantId: string, sha256: string): Promise<LogoFile | undefined> {
    const row = await this.db
      .selectFrom('merchant_logos')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('sha256', '=', sha256)
      .executeTakeFirst();
    if (!row) {
      return undefined;
    }
    return {
      merchantId: row.merchant_id,
      sha256: row.sha256,
      contentType: row.content_type as LogoType,
      width: Number(row.width),
      height: Number(row.height),
      bytes: Buffer.from(row.data, 'base64'),
      createdAt: Number(row.created_at),
    };
  }

  async deleteAllBut(merchantId: string, keep: string | null): Promise<void> {
    let query = this.db.deleteFrom('merchant_logos').where('merchant_id', '=', merchantId);
    if (keep !== null) {
      query = query.where('sha256', '<>', keep);
    }
    await query.execute();
  }
}
