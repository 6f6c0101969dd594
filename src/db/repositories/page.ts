import type { ExpressionBuilder } from 'kysely';
import type { PageCursor } from '../../domain/shared/page.ts';

/**
 * Rows strictly after the cursor in (created_at desc, id desc) order, written as one row-value
 * comparison, `(created_at, id) < (cursor)`: both databases turn it into the start of an index
 * range on (…, created_at, id), so a page far down a list reads only its own entries. (The same
 * condition as an OR of `created_at < c` and `created_at = c and id < i` was only a filter: each
 * page walked every entry before it, and exporting a long list took quadratic time.)
 */
export function afterCursor<DB, TB extends keyof DB>(cursor: PageCursor) {
  return (eb: ExpressionBuilder<DB, TB>) => {
    // biome-ignore lint/suspicious/noExplicitAny: column references are checked by the callers' table types
    const e = eb as unknown as ExpressionBuilder<any, any>;
    return e(e.refTuple('created_at', 'id'), '<', e.tuple(BigInt(cursor.createdAt), cursor.id));
  };
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
