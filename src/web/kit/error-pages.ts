import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/shared/errors.ts';
import { isDatabaseUnavailable } from '../../domain/shared/store-unavailable.ts';

export type ErrorPageKind = 'error' | 'notFound' | 'badRequest';

/**
 * Errors and unknown paths of a page plugin answer with its HTML pages, never the API's JSON.
 * 5xx are logged with the error only, never the request body: a form may hold card data.
 */
export function registerHtmlErrorPages(
  scope: FastifyInstance,
  what: string,
  send: (req: FastifyRequest, reply: FastifyReply, status: number, kind: ErrorPageKind) => FastifyReply,
  /** Also answer unknown paths (one not-found handler per prefix: a scope under a taken one routes a catch-all instead). */
  options: { notFound: boolean } = { notFound: true },
): void {
  scope.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    const status = error instanceof AppError ? error.status : (error.statusCode ?? 500);
    if (isDatabaseUnavailable(error)) {
      // Temporary: the page says something went wrong, and the status lets a proxy or monitor retry.
      req.log.warn({ err: error, reqId: req.id }, 'database not reachable');
      return send(req, reply, 503, 'error');
    }
    if (status >= 500) {
      req.log.error({ err: error, reqId: req.id }, `${what} failed`);
      return send(req, reply, 500, 'error');
    }
    return send(req, reply, status, status === 404 ? 'notFound' : 'badRequest');
  });
  if (options.notFound) {
    scope.setNotFoundHandler((req, reply) => send(req, reply, 404, 'notFound'));
  }
}
