import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/dashboard/audit.ts';
import type { ActiveSession } from '../../domain/dashboard/dashboard-auth.service.ts';
import type { Action } from '../../domain/dashboard/roles.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { RouteDeps } from '../../http/routes/deps.ts';
import type { SafeHtml } from '../checkout/html.ts';
import type { DashboardMessages } from './i18n.ts';
import type { Section } from './views/layout.ts';

/** What a signed-in page knows about its request. */
export type DashContext = {
  active: ActiveSession;
  merchantId: string;
  merchantName: string;
  /** Every merchant the user belongs to (the switcher shows when there are several). */
  merchants: { id: string; name: string }[];
  role: ActiveSession['memberships'][number]['role'];
  mode: Mode;
  base: string;
  m: DashboardMessages;
  actor: Actor;
  can(action: Action): boolean;
};

/** The tools every route group gets from the plugin. */
export type DashTools = {
  deps: RouteDeps;
  https: boolean;
  messagesOf(req: FastifyRequest): DashboardMessages;
  csrfToken(req: FastifyRequest, reply: FastifyReply): string;
  /** Same origin and this browser's token; on failure a 403 page is sent and false returned. */
  checkCsrf(req: FastifyRequest, reply: FastifyReply): boolean;
  sendPublic(req: FastifyRequest, reply: FastifyReply, status: number, title: string, body: SafeHtml): FastifyReply;
  sendShell(
    req: FastifyRequest,
    reply: FastifyReply,
    ctx: DashContext,
    section: Section,
    title: string,
    body: SafeHtml,
    status?: number,
  ): FastifyReply;
  /** The signed-in context, or null after sending the sign-in redirect (GET) or a 401 page (POST). */
  requireSession(req: FastifyRequest, reply: FastifyReply, mode: Mode, base: string): Promise<DashContext | null>;
  /** For a page that only a role with `action` may see (a form, a confirmation step): 403 otherwise. */
  requirePermission(
    req: FastifyRequest,
    reply: FastifyReply,
    mode: Mode,
    base: string,
    action: Action,
  ): Promise<DashContext | null>;
  /** For a POST: session, CSRF and the role's permission; null once an error page is sent. */
  authorize(
    req: FastifyRequest,
    reply: FastifyReply,
    mode: Mode,
    base: string,
    action: Action,
  ): Promise<DashContext | null>;
  seeOther(reply: FastifyReply, location: string): FastifyReply;
};
