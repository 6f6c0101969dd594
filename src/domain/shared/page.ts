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

const CURSOR_TEXT = /^(\d{1,16})\.([A-Za-z0-9]{22})$/;

/**
 * A cursor as clients and links carry it: base64url of `createdAt.id`, opaque to them. The API's
 * `next_cursor` and the pages' `?after=` are the same text.
 */
export function encodeCursor(cursor: PageCursor | null): string | null {
  return cursor ? Buffer.from(`${cursor.createdAt}.${cursor.id}`).toString('base64url') : null;
}

/** The cursor `encodeCursor` wrote, or null when the text is not one (the caller words the error). */
export function decodeCursor(text: string): PageCursor | null {
  const m = CURSOR_TEXT.exec(Buffer.from(text.slice(0, 200), 'base64url').toString('utf8'));
  return m?.[1] && m[2] ? { createdAt: Number(m[1]), id: m[2] } : null;
}
