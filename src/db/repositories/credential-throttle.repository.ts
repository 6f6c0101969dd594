import type { Kysely } from 'kysely';
import type { CredentialThrottleRepository } from '../../domain/repositories/credential-throttle.repository.ts';
import type { Database } from '../schema.ts';

export class KyselyCredentialThrottleRepository implements CredentialThrottleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async failures(key: string, now: number, windowMs: number): Promise<number> {
    const row = await this.db
      .selectFrom('dashboard_throttle')
      .select(['window_start', 'failures'])
      .where('key', '=', key)
      .executeTakeFirst();
    return row && Number(row.window_start) + windowMs > now ? Number(row.failures) : 0;
  }

  async recordFailure(key: string, now: number, windowMs: number): Promise<void> {
    const current = await this.failures(key, now, windowMs);
    if (current === 0) {
      await this.db
        .insertInto('dashboard_throttle')
        .values({ key, window_start: BigInt(now), failures: 1n })
        .onConflict((oc) => oc.column('key').doUpdateSet({ window_start: BigInt(now), failures: 1n }))
        .execute();
    } else {
      await this.db
        .updateTable('dashboard_throttle')
        .set((eb) => ({ failures: eb('failures', '+', 1n) }))
        .where('key', '=', key)
        .execute();
    }
  }

  async clearFailures(key: string): Promise<void> {
    await this.db.deleteFrom('dashboard_throttle').where('key', '=', key).execute();
  }
}
