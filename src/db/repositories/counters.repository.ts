import type { Kysely } from 'kysely';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { CounterRepository } from '../../domain/repositories/counter.repository.ts';
import type { TestClockRepository } from '../../domain/repositories/test-clock.repository.ts';
import type { Database } from '../schema.ts';

export class KyselyCounterRepository implements CounterRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async next(merchantId: string, mode: Mode, name: string): Promise<bigint> {
    const row = await this.db
      .insertInto('counters')
      .values({ merchant_id: merchantId, mode, name, value: 1n })
      .onConflict((oc) =>
        oc.columns(['merchant_id', 'mode', 'name']).doUpdateSet((eb) => ({ value: eb('counters.value', '+', 1n) })),
      )
      .returning('value')
      .executeTakeFirstOrThrow();
    return BigInt(row.value);
  }
}

export class KyselyTestClockRepository implements TestClockRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async getOffset(merchantId: string): Promise<number> {
    const row = await this.db
      .selectFrom('test_clocks')
      .select('offset_ms')
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
    return row ? Number(row.offset_ms) : 0;
  }

  async setOffset(merchantId: string, offsetMs: number): Promise<void> {
    await this.db
      .insertInto('test_clocks')
      .values({ merchant_id: merchantId, offset_ms: BigInt(offsetMs) })
      .onConflict((oc) => oc.column('merchant_id').doUpdateSet({ offset_ms: BigInt(offsetMs) }))
      .execute();
  }

  async all(): Promise<{ merchantId: string; offsetMs: number }[]> {
    const rows = await this.db.selectFrom('test_clocks').selectAll().execute();
    return rows.map((r) => ({ merchantId: r.merchant_id, offsetMs: Number(r.offset_ms) }));
  }
}
