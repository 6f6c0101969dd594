import { randomUUID } from 'node:crypto';
import type { Expression, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';
import type { Database } from '../schema.ts';

/** Tables whose rows are queue entries leased to one worker at a time. */
export type LeasedTable = 'outbound_emails' | 'webhook_deliveries';

/** The columns a lease needs, which every LeasedTable has. */
type LeaseDb = { leased: { id: string; locked_until: bigint | null; lease_token: string | null } };

/** Rows not leased at `now`: never leased, given back, or whose lease lapsed. */
export function unleased(now: number): Expression<SqlBool> {
  return sql<SqlBool>`(locked_until is null or locked_until <= ${BigInt(now)})`;
}

/**
 * Leases to this caller the rows that `due` selects (their ids: the caller picks which, how
 * many and in what order, with `unleased` among its conditions) and reads back the rows this
 * caller now holds: those of the ids that carry the lease's token, in `due`'s order. The token,
 * not the time, says who holds a lease: two workers may share a millisecond. On PostgreSQL the
 * due rows are read FOR UPDATE SKIP LOCKED, so with several workers each row goes to exactly
 * one of them; SQLite's single writer runs the whole claim as one transaction anyway.
 */
export async function leaseDue<T extends LeasedTable>(
  db: Kysely<Database>,
  table: T,
  due: SelectQueryBuilder<Database, T, { id: string }>,
  now: number,
  leaseMs: number,
): Promise<Database[T][]> {
  const locked = db.getExecutor().adapter instanceof PostgresAdapter ? due.forUpdate().skipLocked() : due;
  const ids = (await locked.execute()).map((r) => r.id);
  if (ids.length === 0) {
    return [];
  }
  const token = randomUUID();
  // Kysely cannot type a column of "whichever of these tables": LeaseDb names the shared ones.
  const leaseDb = db as unknown as Kysely<LeaseDb>;
  const leased = table as unknown as 'leased';
  await leaseDb
    .updateTable(leased)
    .set({ locked_until: BigInt(now + leaseMs), lease_token: token })
    .where('id', 'in', ids)
    .where(unleased(now))
    .execute();
  const held = await leaseDb
    .selectFrom(leased)
    .selectAll()
    .where('id', 'in', ids)
    .where('lease_token', '=', token)
    .execute();
  const order = new Map(ids.map((id, i) => [id, i]));
  held.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return held as unknown as Database[T][];
}
