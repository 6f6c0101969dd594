import type { FastifyRequest } from 'fastify';
import { AppError } from '../../domain/shared/errors.ts';
import type { PageCursor } from '../../domain/shared/page.ts';
import { decodeCursor, encodeCursor } from '../../domain/shared/page.ts';

/** A request's query string as parsed, whatever Fastify made of it. */
export function queryOf(req: FastifyRequest): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

/** One query parameter as text ('' when absent or repeated). */
export function queryText(req: FastifyRequest, name: string): string {
  const value = queryOf(req)[name];
  return typeof value === 'string' ? value : '';
}

/** `path?k=v&…` with the empty values left out. */
export function withQuery(path: string, params: Record<string, string | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v) {
      q.set(k, v);
    }
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Checkbox values (one field, or several of the same name), at most 50. */
export function formList(body: unknown, name: string): string[] {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((x): x is string => typeof x === 'string').slice(0, 50);
}

/** A page cursor in a link (`?after=`): the same text as the API's next_cursor. */
export const cursorParam = encodeCursor;

/** The cursor a link carries in `name`, null when there is none; a malformed one is a 400. */
export function parseCursorParam(value: unknown, name = 'after'): PageCursor | null {
  if (typeof value !== 'string' || value === '') {
    return null;
  }
  const cursor = decodeCursor(value);
  if (!cursor) {
    throw new AppError('WRONG_INPUT', [`${name} must be the link of a previous page`]);
  }
  return cursor;
}

/** `?limit=` (1 to 100, as the API's), else `fallback`. */
export function pageLimit(req: FastifyRequest, fallback: number): number {
  const text = queryText(req, 'limit');
  if (text === '') {
    return fallback;
  }
  const n = /^\d{1,3}$/.test(text) ? Number(text) : 0;
  if (n < 1 || n > 100) {
    throw new AppError('WRONG_INPUT', ['limit must be a whole number from 1 to 100']);
  }
  return n;
}
