/** Keyset pagination: newest first, the cursor is the last row's (created_at, id). */
export type PageCursor = { createdAt: number; id: string };
export type PageRequest = { limit: number; cursor: PageCursor | null };
export type Page<T> = { data: T[]; hasMore: boolean; next: PageCursor | null };

/** Cuts the `limit + 1` rows a repository read into a page. */
export function toPage<T extends { createdAt: number; id: string }>(rows: T[], limit: number): Page<T> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, hasMore, next: hasMore && last ? { createdAt: last.createdAt, id: last.id } : null };
}
