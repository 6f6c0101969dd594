import type { Static, TSchema } from 'typebox';
import { Type } from 'typebox';
import { AppError, ERROR_CODES } from '../../domain/shared/errors.ts';
import type { PageCursor, PageRequest } from '../../domain/shared/page.ts';
import { decodeCursor, encodeCursor } from '../../domain/shared/page.ts';

/** `{"type":"string","enum":[…]}`: plain enums give Ajv's clearest messages and OpenAPI's clearest docs. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorBody = Type.Object(
  {
    messages: Type.Array(Type.String(), { minItems: 1 }),
    code: StringEnum(ERROR_CODES, { description: 'One of the codes in docs/errors.md' }),
  },
  { $id: 'ErrorBody', description: 'Every error answer has this body' },
);

const ref = Type.Unsafe<Static<typeof ErrorBody>>({ $ref: 'ErrorBody#' });

/** The error answers every /v1 route can give, spread into each route's response schema for OpenAPI. */
export const errorResponses = {
  400: { ...ref, description: 'WRONG_INPUT: malformed JSON or a failed validation, one message per problem' },
  401: { ...ref, description: 'UNAUTHORIZED: missing or invalid x-api-key / x-api-secret' },
  404: { ...ref, description: 'NOT_FOUND: unknown id, or an id of another merchant or mode' },
  429: { ...ref, description: 'TOO_MANY_REQUESTS: rate limit exceeded (see Retry-After)' },
  500: { ...ref, description: 'INTERNAL_SERVER_ERROR' },
};

export const writeErrorResponses = {
  ...errorResponses,
  409: { ...ref, description: 'CONFLICT: a request with this Idempotency-Key is still running' },
  413: { ...ref, description: 'PAYLOAD_TOO_LARGE: body over the limit (64 KiB by default)' },
  415: { ...ref, description: 'UNSUPPORTED_MEDIA_TYPE: body that is not application/json' },
  422: { ...ref, description: 'IDEMPOTENCY_KEY_REUSED: same Idempotency-Key, different body' },
};

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ description: 'Makes the POST safe to retry: 1–255 characters, kept 24 hours' }),
  ),
});

export const PageQuery = {
  limit: Type.Optional(Type.String({ maxLength: 10, description: 'An integer from 1 to 100, default 20' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page' })),
};

/** A page of a list; named `<Item>Page` in the OpenAPI document. */
export function pageSchema<T extends TSchema>(item: T) {
  const { $id } = item as { $id?: string };
  return Type.Object(
    { data: Type.Array(item), has_more: Type.Boolean(), next_cursor: Nullable(Type.String()) },
    $id === undefined ? {} : { $id: `${$id}Page` },
  );
}

export function parsePageQuery(query: { limit?: string; cursor?: string }): PageRequest {
  const limit = query.limit === undefined ? 20 : /^\d{1,3}$/.test(query.limit) ? Number(query.limit) : Number.NaN;
  const messages: string[] = [];
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    messages.push('limit must be an integer from 1 to 100');
  }
  let cursor: PageCursor | null = null;
  if (query.cursor !== undefined && query.cursor !== '') {
    cursor = decodeCursor(query.cursor);
    if (!cursor) {
      messages.push('cursor must be the next_cursor of a previous page');
    }
  }
  if (messages.length > 0) {
    throw new AppError('WRONG_INPUT', messages);
  }
  return { limit, cursor };
}

export function toPageResponse<T, R>(
  page: { data: T[]; hasMore: boolean; next: PageCursor | null },
  map: (item: T) => R,
): { data: R[]; has_more: boolean; next_cursor: string | null } {
  return { data: page.data.map(map), has_more: page.hasMore, next_cursor: encodeCursor(page.next) };
}
