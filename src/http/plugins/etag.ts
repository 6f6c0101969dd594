import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from './errors.ts';

/** A strong validator for a body: a hash of its bytes. */
export function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Whether the client already has `etag` (If-None-Match, RFC 9110 §13.1.2: a list of tags, weak
 * ones compared weakly, or `*`).
 */
export function clientHas(req: FastifyRequest, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) {
    return false;
  }
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Answers `body` (JSON) with its ETag, or `304 Not Modified` with no body when the client has it. */
export function sendCachedJson(req: FastifyRequest, reply: FastifyReply, body: string, etag: string): FastifyReply {
  // The answer depends on the caller's credentials: any cache keeps it private and asks again.
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  if (clientHas(req, etag)) {
    return reply.code(304).send();
  }
  return sendJson(reply, 200, body);
}
