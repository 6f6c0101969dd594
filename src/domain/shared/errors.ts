/**
 * The closed list of error codes the API answers with. `WRONG_INPUT`, `NOT_FOUND` and
 * `INTERNAL_SERVER_ERROR` come from the published ONE.lat interface; the others are ours
 * and are catalogued in docs/errors.md (a unit test keeps the two in step).
 */
export type ErrorCode =
  | 'WRONG_INPUT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL_SERVER_ERROR'
  | 'SERVICE_UNAVAILABLE';

export const ERROR_CODES: readonly ErrorCode[] = [
  'WRONG_INPUT',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'TOO_MANY_REQUESTS',
  'INTERNAL_SERVER_ERROR',
  'SERVICE_UNAVAILABLE',
];

/** HTTP status for each code. No `default`: a new code fails to compile until it has a status. */
export function statusFor(code: ErrorCode): number {
  switch (code) {
    case 'WRONG_INPUT':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'CONFLICT':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'IDEMPOTENCY_KEY_REUSED':
      return 422;
    case 'TOO_MANY_REQUESTS':
      return 429;
    case 'INTERNAL_SERVER_ERROR':
      return 500;
    case 'SERVICE_UNAVAILABLE':
      return 503;
  }
}

/** Every failure the API reports. Messages are for humans and start with the wire field path when there is one. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly messages: readonly string[];
  readonly status: number;
  /** Extra response headers (e.g. `Retry-After`, `Allow`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, messages: readonly string[], headers: Record<string, string> = {}) {
    super(messages.join('; ') || code);
    this.name = 'AppError';
    this.code = code;
    this.messages = messages.length > 0 ? messages : [code];
    this.status = statusFor(code);
    this.headers = headers;
  }
}

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', [`${what} not found`]);
export const wrongInput = (messages: readonly string[]): AppError => new AppError('WRONG_INPUT', messages);
