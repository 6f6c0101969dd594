import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Page, PageCursor } from '../../domain/shared/page.ts';
import { toPage } from '../../domain/shared/page.ts';

/**
 * Rows strictly after the cursor in (created_at desc, id desc) order, written as one row-value
 * comparison, `(created_at, id) < (cursor)`: both databases turn it into the start of an index
 * range on (…, created_at, id), so a page far down a list reads only its own entries. (The same
 * condition as an OR of `created_at < c` and `created_at = c and id < i` was only a filter: each
 * page walked every entry before it, and exporting a long list took quadratic time.)
 */
function afterCursor(cursor: PageCursor) {
  // biome-ignore lint/suspicious/noExplicitAny: see newestFirstPage
  return (eb: ExpressionBuilder<any, any>) =>
    eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(BigInt(cursor.createdAt), cursor.id));
}

/**
 * Where a newest-first read starts when a list is cut both by a cursor and by "created before
 * `createdLt`": the lower of the two, as one cursor, since SQLite seeks an index on only one upper
 * bound of created_at and, given two, may pick the range's and walk down to the cursor. Ids are
 * never empty, so `(created_at, id) < (createdLt, '')` is exactly `created_at < createdLt`.
 */
export function startBelow(
  cursor: PageCursor | null | undefined,
  createdLt: number | undefined,
): PageCursor | null | undefined {
  if (createdLt === undefined) {
    return cursor;
  }
  if (!cursor || cursor.createdAt >= createdLt) {
    return { createdAt: createdLt, id: '' };
  }
  return cursor;
}

/**
 * One page of a list read newest first: the rows of `query` (already narrowed to the merchant,
 * mode and filters) after `start`, in (created_at desc, id desc) order, `limit + 1` of them so
 * the page knows whether more follow, cut and mapped to a page with its next cursor.
 */
export async function newestFirstPage<
  DB,
  TB extends keyof DB,
  O extends { created_at: unknown; id: string },
  T extends { createdAt: number; id: string },
>(
  query: SelectQueryBuilder<DB, TB, O>,
  start: PageCursor | null | undefined,
  limit: number,
  toItem: (row: O) => T,
): Promise<Page<T>> {
  // The rows hold created_at and id (O says so); the generic table type cannot say it of its columns.
  // biome-ignore lint/suspicious/noExplicitAny: as above
  let q = query as unknown as SelectQueryBuilder<any, any, O>;
  if (start) {
    q = q.where(afterCursor(start));
  }
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return toPage(rows.map(toItem), limit);
}
