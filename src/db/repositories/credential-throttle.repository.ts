import { type Kysely, sql } from 'kysely';
import type { CredentialThrottleRepository } from '../../domain/repositories/credential-throttle.repository.ts';
import type { Database } from '../schema.ts';

export class KyselyCredentialThrottleRepository implements CredentialThrottleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async takeSlot(key: string, now: number, windowMs: number, max: number): Promise<boolean> {
    // One upsert, so the count and the decision are the same step: on PostgreSQL the conflicting
    // row is locked and the WHERE is evaluated on its newest version; SQLite runs one writer at a
    // time. A row whose window has passed starts a new window at one.
    const expired = sql<boolean>`dashboard_throttle.window_start + ${BigInt(windowMs)} <= ${BigInt(now)}`;
    const taken = await this.db
      .insertInto('dashboard_throttle')
      .values({ key, window_start: BigInt(now), failures: 1n })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            window_start: sql`CASE WHEN ${expired} THEN ${BigInt(now)} ELSE dashboard_throttle.window_start END`,
            failures: sql`CASE WHEN ${expired} THEN 1 ELSE dashboard_throttle.failures + 1 END`,
          })
          .where(sql<boolean>`${expired} OR dashboard_throttle.failures < ${BigInt(max)}`),
      )
      .returning('failures')
      .executeTakeFirst();
    return taken !== undefined;
  }

  async releaseSlot(key: string): Promise<void> {
    await this.db
      .updateTable('dashboard_throttle')
      .set((eb) => ({ failures: eb('failures', '-', 1n) }))
      .where('key', '=', key)
      .where('failures', '>', 0n)
      .execute();
  }

  async clearFailures(key: string): Promise<void> {
    await this.db.deleteFrom('dashboard_throttle').where('key', '=', key).execute();
  }
}
