import type { ExpressionBuilder } from 'kysely';
import type { PageCursor } from '../../domain/shared/page.ts';

/** Rows strictly after the cursor in (created_at desc, id desc) order. */
export function afterCursor<DB, TB extends keyof DB>(cursor: PageCursor) {
  return (eb: ExpressionBuilder<DB, TB>) => {
    // biome-ignore lint/suspicious/noExplicitAny: column references are checked by the callers' table types
    const e = eb as unknown as ExpressionBuilder<any, any>;
    return e.or([
      e('created_at', '<', BigInt(cursor.createdAt)),
      e.and([e('created_at', '=', BigInt(cursor.createdAt)), e('id', '<', cursor.id)]),
    ]);
  };
}
