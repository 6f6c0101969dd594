import type { Kysely } from 'kysely';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { ObjectOwnerRepository, OwnedObjectType } from '../../domain/repositories/object-owner.repository.ts';
import type { Database } from '../schema.ts';

/** The table of each kind of object; every one has `id` as its primary key and `merchant_id`, `mode`. */
const TABLES = {
  payment_order: 'payment_orders',
  checkout_preference: 'checkout_preferences',
  payment_link: 'payment_links',
  recurrent_payment: 'recurrent_payments',
  webhook_endpoint: 'webhook_endpoints',
  event: 'events',
} as const satisfies Record<OwnedObjectType, keyof Database>;

export class KyselyObjectOwnerRepository implements ObjectOwnerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async ownerOf(type: OwnedObjectType, id: string): Promise<{ merchantId: string; mode: Mode } | null> {
    const row = await this.db
      .selectFrom(TABLES[type])
      .select(['merchant_id', 'mode'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { merchantId: row.merchant_id, mode: row.mode as Mode } : null;
  }
}
