import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie as readCookieHeader } from '../kit/security.ts';

export const SESSION_COOKIE = 'cobro_session';
export const PENDING_COOKIE = 'cobro_2fa';
export const MERCHANT_COOKIE = 'cobro_merchant';

export function readCookie(req: FastifyRequest, name: string): string | null {
  return readCookieHeader(req.headers.cookie, name);
}

/**
 * Session cookies: HttpOnly (no script reads them), SameSite=Lax (sent on top-level links from
 * e-mails, never on cross-site posts), Secure when PUBLIC_URL is https, scoped to /dashboard.
 * No Max-Age: the server decides expiry (12 h idle, 7 days absolute) and the browser drops the
 * cookie when it closes.
 */
export function setCookie(reply: FastifyReply, name: string, value: string, secure: boolean): void {
  reply.header('set-cookie', `${name}=${value}; Path=/dashboard; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
}

export function clearCookie(reply: FastifyReply, name: string, secure: boolean): void {
  reply.header('set-cookie', `${name}=; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`);
}
