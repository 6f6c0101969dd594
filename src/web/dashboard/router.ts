import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { Actor, AuditInput } from '../../domain/dashboard/audit.ts';
import type { ActiveSession } from '../../domain/dashboard/dashboard-auth.service.ts';
import type { Action } from '../../domain/dashboard/roles.ts';
import type { Caller, Mode } from '../../domain/merchants/merchant.ts';
import type { Services } from '../../services.ts';
import type { SafeHtml } from '../kit/html.ts';
import { callerOf } from './caller.ts';
import type { DashboardMessages } from './i18n.ts';
import type { Section } from './views/layout.ts';

/** What a signed-in request knows about itself. */
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

/** What a signed-in page or action is given: its request, the signed-in context and the tools to answer. */
export type DashRequest<G extends RouteGenericInterface = RouteGenericInterface> = {
  req: FastifyRequest<G>;
  reply: FastifyReply;
  /** The signed-in user, the chosen merchant, this page's mode and base, the role, the texts. */
  ctx: DashContext;
  services: Services;
  /** The domain services' caller: the chosen merchant in this page's mode, named after the user. */
  caller: Caller;
  /** Answers with `body` inside the dashboard's frame (navigation on `section`). */
  render(section: Section, title: string, body: SafeHtml, status?: number): FastifyReply;
  /** 303 See Other to `location` (after a POST, so a reload does not send it again). */
  redirect(location: string): FastifyReply;
  /** This browser's CSRF token, for the forms of the page being rendered. */
  csrfToken(): string;
  /** One entry in the merchant's audit log, by this user. */
  audit(entry: Omit<AuditInput, 'merchantId'>): Promise<void>;
};

/** What a page without a session (sign-in, password reset, invitations) is given. */
export type PublicRequest<G extends RouteGenericInterface = RouteGenericInterface> = {
  req: FastifyRequest<G>;
  reply: FastifyReply;
  services: Services;
  m: DashboardMessages;
  /** PUBLIC_URL is https: the session cookies this page sets are Secure. */
  https: boolean;
  /** Answers with `body` in the frame for people who are not signed in. */
  render(title: string, body: SafeHtml, status?: number): FastifyReply;
  redirect(location: string): FastifyReply;
  csrfToken(): string;
};

export type DashHandler<G extends RouteGenericInterface = RouteGenericInterface> = (
  r: DashRequest<G>,
) => Promise<FastifyReply>;
export type PublicHandler<G extends RouteGenericInterface = RouteGenericInterface> = (
  r: PublicRequest<G>,
) => Promise<FastifyReply>;

/** What a public route may declare about itself. */
export type PublicRouteOptions = {
  /** Path parameters that are bearer secrets (an invitation's token): never written to the log. */
  secretParams?: readonly string[];
};

/** Declares a route for anyone, at an absolute path under /dashboard. */
type PublicRoute = <G extends RouteGenericInterface = RouteGenericInterface>(
  path: string,
  handler: PublicHandler<G>,
  options?: PublicRouteOptions,
) => void;

/** A public route whose `:token` is a bearer secret (invitation and password-reset links). */
export const BEARER_TOKEN: PublicRouteOptions = { secretParams: ['token'] };

/**
 * How every dashboard route is declared, so that session, role, CSRF and audit are checked the
 * same way everywhere. Paths of `page` and `action` are relative to a mode's base: each is
 * served at `/dashboard…` (live data) and `/dashboard/test…` (test data).
 */
export type DashRouter = {
  /** A GET page for a signed-in user; with `need`, a role without that permission gets the 403 page. */
  page<G extends RouteGenericInterface = RouteGenericInterface>(
    path: string,
    handler: DashHandler<G>,
    need?: Action,
  ): void;
  /**
   * A POST: same origin and this browser's CSRF token, then a session, then the role's `need`
   * (null: any signed-in role). Each refusal answers with its page (403, 401, 403).
   */
  action<G extends RouteGenericInterface = RouteGenericInterface>(
    path: string,
    need: Action | null,
    handler: DashHandler<G>,
  ): void;
  /** A GET page for anyone (an absolute path under /dashboard). */
  publicPage: PublicRoute;
  /** A POST for anyone: same origin and CSRF token checked (an absolute path under /dashboard). */
  publicAction: PublicRoute;
  /**
   * Routes in an encapsulated scope of their own, which `setup` prepares first (a body parser
   * or a hook only these routes have), declared through the same router.
   */
  within(setup: (scope: FastifyInstance) => Promise<void>, routes: (r: DashRouter) => void): void;
};

/** The plugin's own means, which the router turns into the checks above. */
export type RouterMeans = {
  services: Services;
  https: boolean;
  messagesOf(req: FastifyRequest): DashboardMessages;
  csrfToken(req: FastifyRequest, reply: FastifyReply): string;
  /** Same origin and this browser's token; on failure the 403 page is sent and false returned. */
  checkCsrf(req: FastifyRequest, reply: FastifyReply): boolean;
  /** The signed-in context, or null after sending the sign-in redirect (GET) or the 401 page (POST). */
  openSession(req: FastifyRequest, reply: FastifyReply, mode: Mode, base: string): Promise<DashContext | null>;
  sendForbidden(req: FastifyRequest, reply: FastifyReply, ctx: DashContext): FastifyReply;
  sendShell(
    req: FastifyRequest,
    reply: FastifyReply,
    ctx: DashContext,
    section: Section,
    title: string,
    body: SafeHtml,
    status: number,
  ): FastifyReply;
  sendPublic(req: FastifyRequest, reply: FastifyReply, status: number, title: string, body: SafeHtml): FastifyReply;
};

const MODES = [
  ['live', '/dashboard'],
  ['test', '/dashboard/test'],
] as const;

const seeOther = (reply: FastifyReply, location: string): FastifyReply =>
  reply.code(303).header('location', location).send();

export function createDashRouter(scope: FastifyInstance, means: RouterMeans): DashRouter {
  const { services } = means;

  const signedIn = <G extends RouteGenericInterface>(
    req: FastifyRequest<G>,
    reply: FastifyReply,
    ctx: DashContext,
  ): DashRequest<G> => ({
    req,
    reply,
    ctx,
    services,
    caller: callerOf(ctx),
    render: (section, title, body, status = 200) => means.sendShell(req, reply, ctx, section, title, body, status),
    redirect: (location) => seeOther(reply, location),
    csrfToken: () => means.csrfToken(req, reply),
    audit: (entry) => services.dashboard.audit.record(ctx.actor, { ...entry, merchantId: ctx.merchantId }),
  });

  const anyone = <G extends RouteGenericInterface>(req: FastifyRequest<G>, reply: FastifyReply): PublicRequest<G> => ({
    req,
    reply,
    services,
    m: means.messagesOf(req),
    https: means.https,
    render: (title, body, status = 200) => means.sendPublic(req, reply, status, title, body),
    redirect: (location) => seeOther(reply, location),
    csrfToken: () => means.csrfToken(req, reply),
  });

  return {
    page<G extends RouteGenericInterface>(path: string, handler: DashHandler<G>, need?: Action) {
      for (const [mode, base] of MODES) {
        scope.get(`${base}${path}`, async (req, reply) => {
          const ctx = await means.openSession(req, reply, mode, base);
          if (!ctx) {
            return reply;
          }
          if (need && !ctx.can(need)) {
            return means.sendForbidden(req, reply, ctx);
          }
          return handler(signedIn(req as FastifyRequest<G>, reply, ctx));
        });
      }
    },
    action<G extends RouteGenericInterface>(path: string, need: Action | null, handler: DashHandler<G>) {
      for (const [mode, base] of MODES) {
        scope.post(`${base}${path}`, async (req, reply) => {
          if (!means.checkCsrf(req, reply)) {
            return reply;
          }
          const ctx = await means.openSession(req, reply, mode, base);
          if (!ctx) {
            return reply;
          }
          if (need && !ctx.can(need)) {
            return means.sendForbidden(req, reply, ctx);
          }
          return handler(signedIn(req as FastifyRequest<G>, reply, ctx));
        });
      }
    },
    publicPage<G extends RouteGenericInterface>(path: string, handler: PublicHandler<G>, options?: PublicRouteOptions) {
      scope.get(path, { config: { ...options } }, (req, reply) => handler(anyone(req as FastifyRequest<G>, reply)));
    },
    publicAction<G extends RouteGenericInterface>(
      path: string,
      handler: PublicHandler<G>,
      options?: PublicRouteOptions,
    ) {
      scope.post(path, { config: { ...options } }, async (req, reply) => {
        if (!means.checkCsrf(req, reply)) {
          return reply;
        }
        return handler(anyone(req as FastifyRequest<G>, reply));
      });
    },
    within(setup, routes) {
      void scope.register(async (child) => {
        await setup(child);
        routes(createDashRouter(child, means));
      });
    },
  };
}
