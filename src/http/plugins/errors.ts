import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../domain/shared/errors.ts';
import { AppError } from '../../domain/shared/errors.ts';
import { isDatabaseUnavailable } from '../../domain/shared/store-unavailable.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

export function sendJson(reply: FastifyReply, status: number, body: string | object): FastifyReply {
  return reply
    .code(status)
    .header('content-type', JSON_TYPE)
    .send(typeof body === 'string' ? body : JSON.stringify(body));
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) {
    reply.header(name, value);
  }
  return sendJson(reply, error.status, { messages: error.messages, code: error.code });
}

type AjvError = { instancePath?: string; keyword?: string; params?: Record<string, unknown>; message?: string };

/** `/payer/email` → `payer.email`, `/payment_method_types/0` → `payment_method_types[0]`. */
function fieldPath(instancePath: string | undefined): string {
  if (!instancePath) {
    return '';
  }
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

/** One plain message per problem, starting with the wire field path. */
export function validationMessages(errors: readonly AjvError[], context: string): string[] {
  const where = context === 'body' ? '' : `${context} `;
  // A nullable member fails once per branch ("must be number", "must be null"): merge them into one message.
  const typesByPath = new Map<string, string[]>();
  for (const e of errors) {
    if (e.keyword === 'type') {
      const list = typesByPath.get(e.instancePath ?? '') ?? [];
      list.push(String(e.params?.type));
      typesByPath.set(e.instancePath ?? '', list);
    }
  }
  // A value of the right type that broke a rule (too long, not in the enum…) also fails the
  // null branch of its nullable member: that "must be null" is noise, so it is dropped.
  const ruleBroken = new Set(
    errors
      .filter((e) => e.keyword !== 'anyOf' && !(e.keyword === 'type' && e.params?.type === 'null'))
      .filter((e) => e.keyword !== 'type' || (e.instancePath ?? '').split('/').length > 2)
      .map((e) => e.instancePath ?? ''),
  );
  const messages = errors
    .filter(
      (e) =>
        !(
          e.keyword === 'type' &&
          e.params?.type === 'null' &&
          [...ruleBroken].some((p) => p === (e.instancePath ?? '') || p.startsWith(`${e.instancePath ?? ''}/`))
        ),
    )
    .filter((e) => e.keyword !== 'anyOf' || errors.length === 1)
    .map((e) => {
      const path = fieldPath(e.instancePath);
      const params = e.params ?? {};
      switch (e.keyword) {
        case 'required':
          return `${where}${path ? `${path}.` : ''}${String(params.missingProperty)} is required`;
        case 'type': {
          const name = path || (context === 'body' ? 'body' : context);
          const types = typesByPath.get(e.instancePath ?? '') ?? [String(params.type)];
          return `${where}${name} must be ${types.length === 1 && types[0] === 'object' ? 'an object' : `of type ${types.join(' or ')}`}`;
        }
        case 'enum':
          return `${where}${path} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
        case 'const':
          return `${where}${path} must be ${String(params.allowedValue)}`;
        default:
          return `${where}${path || context} ${e.message ?? 'is invalid'}`;
      }
    });
  return [...new Set(messages)].slice(0, 50);
}

/** Fastify's own 4xx errors, mapped to the API's codes. */
function fastifyClientError(error: FastifyError): AppError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', ['request body is larger than the limit']);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', [
        'request body must be JSON sent as Content-Type: application/json',
      ]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('WRONG_INPUT', ['Content-Length does not match the body']);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('WRONG_INPUT', ['request body must not be empty']);
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new AppError('WRONG_INPUT', ['malformed URL']);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('WRONG_INPUT', ['a path parameter is longer than the limit']);
    default:
      break;
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code: ErrorCode =
      status === 413
        ? 'PAYLOAD_TOO_LARGE'
        : status === 415
          ? 'UNSUPPORTED_MEDIA_TYPE'
          : status === 404
            ? 'NOT_FOUND'
            : status === 429
              ? 'TOO_MANY_REQUESTS'
              : 'WRONG_INPUT';
    return new AppError(code, ['the request is malformed']);
  }
  return null;
}

/**
 * PostgreSQL refuses some text the client sent: NUL (U+0000) has no place in a `text` value
 * (SQLSTATE 22021, 22P05). That is the request's fault, so it is a 400, never a 500. SQLite
 * stores such text, so the edges (body parser, auth) should refuse it first on every backend.
 */
function databaseInputError(error: unknown): AppError | null {
  const code = (error as { code?: unknown }).code;
  if (code === '22021' || code === '22P05') {
    return new AppError('WRONG_INPUT', ['the request contains a NUL character (\\u0000), which text does not accept']);
  }
  return null;
}

/** The three tiers: AppError → its status; validation and parse errors → 4xx; anything else → 500, logged. */
export function handleError(error: FastifyError | Error, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof AppError) {
    return sendError(reply, error);
  }
  const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation) {
    return sendError(
      reply,
      new AppError('WRONG_INPUT', validationMessages(fe.validation, fe.validationContext ?? 'body')),
    );
  }
  const mapped = fastifyClientError(fe) ?? databaseInputError(error);
  if (mapped) {
    return sendError(reply, mapped);
  }
  if (isDatabaseUnavailable(error)) {
    // The request did not happen, or its transaction was rolled back: an honest 503 tells the
    // client to retry (with the same Idempotency-Key), where a 500 would read as a bug.
    req.log.warn({ err: error, reqId: req.id }, 'database not reachable');
    return sendError(
      reply,
      new AppError('SERVICE_UNAVAILABLE', ['the database is not reachable; retry shortly'], { 'retry-after': '1' }),
    );
  }
  req.log.error({ err: error, reqId: req.id }, 'unexpected error');
  return sendError(reply, new AppError('INTERNAL_SERVER_ERROR', ['an unexpected error occurred; it has been logged']));
}

type RoutePattern = { methods: Set<string>; regex: RegExp };

/** Unknown routes answer 404, known paths with another method 405 with `Allow`, both with the error body. */
export function registerErrorHandlers(app: FastifyInstance): void {
  const patterns = new Map<string, RoutePattern>();
  app.addHook('onRoute', (route) => {
    const source = `^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}$`;
    const entry = patterns.get(route.url) ?? { methods: new Set<string>(), regex: new RegExp(source) };
    for (const m of Array.isArray(route.method) ? route.method : [route.method]) {
      entry.methods.add(m);
    }
    patterns.set(route.url, entry);
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const allowed = new Set<string>();
    for (const p of patterns.values()) {
      if (p.regex.test(path)) {
        for (const m of p.methods) {
          allowed.add(m);
        }
      }
    }
    if (allowed.size > 0) {
      return sendError(
        reply,
        new AppError('METHOD_NOT_ALLOWED', [`${req.method} is not allowed on ${path}`], {
          allow: [...allowed].sort().join(', '),
        }),
      );
    }
    return sendError(reply, new AppError('NOT_FOUND', [`no route ${req.method} ${path}`]));
  });
}
