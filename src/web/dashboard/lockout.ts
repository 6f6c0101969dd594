import type { FastifyReply } from 'fastify';
import type { DashboardMessages } from './i18n.ts';

/** The status of a form refused because the credential throttle holds its account or address. */
export const LOCKED_OUT = 429;

/**
 * What every form that checks a password or a code says while the credential throttle holds the
 * account or the address (sign-in, its code step, invitations, two-factor on and off): the same
 * words, with Retry-After, everywhere. Sends the header; returns the words for the page.
 */
export function lockedOut(reply: FastifyReply, m: DashboardMessages, retryAfterSeconds: number): string {
  reply.header('retry-after', String(retryAfterSeconds));
  return m.t('Too many failed attempts. Wait a few minutes and try again.');
}
