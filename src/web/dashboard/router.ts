import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { LocatableType, RefusalReason } from '../../domain/dashboard/access-refusals.service.ts';
import type { Actor, AuditInput } from '../../domain/dashboard/audit.ts';
import type { ActiveSession } from '../../domain/dashboard/dashboard-auth.service.ts';
import type { Action } from '../../domain/dashboard/roles.ts';
import type { Caller, Mode } from '../../domain/merchants/merchant.ts';
import { AppError } from '../../domain/shared/errors.ts';
import type { Services } from '../../services.ts';
import type { SafeHtml } from '../kit/html.ts';
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
  /** Same origin and this browser's token. */
  csrfValid(req: FastifyRequest): boolean;
  /** The 403 page of a form whose CSRF check failed. */
  sendCsrfRefused(req: FastifyRequest, reply: FastifyReply): FastifyReply;
  /** The signed-in context, or null after sending the sign-in redirect (GET) or the 401 page (POST). */
  openSession(req: FastifyRequest, reply: FastifyReply, mode: Mode, base: string): Promise<DashContext | null>;
  /** The signed-in context if the request carries a valid session, or null; sends nothing. */
  sessionOf(req: FastifyRequest, mode: Mode, base: string): Promise<DashContext | null>;
  /** Counts a refused attempt in the server's metrics (every one, recorded or not). */
  countRefusal(reason: RefusalReason): void;
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

/**
 * The domain services' caller for a signed-in dashboard request: the chosen merchant, the
 * page's mode (live or test, from its address), and a key naming the user, so logs and
 * idempotency records tell a dashboard action from an API call.
 */
function callerOf(ctx: DashContext): Caller {
  return { merchantId: ctx.merchantId, mode: ctx.mode, key: `dashboard:${ctx.active.user.id}` };
}

const MODES = [
  ['live', '/dashboard'],
  ['test', '/dashboard/test'],
] as const;

const seeOther = (reply: FastifyReply, location: string): FastifyReply =>
  reply.code(303).header('location', location).send();

/** The object a route's path addresses by its parameter, e.g. `/payment_orders/:id/refund`. */
type RouteObject = { type: string; param: string; locatable: LocatableType | null };

const OBJECT_PATHS: [RegExp, RouteObject][] = [
  [/^\/payment_orders\/:id(\/|$)/, { type: 'payment_order', param: 'id', locatable: 'payment_order' }],
  [
    /^\/checkout_preferences\/:id(\/|$)/,
    { type: 'checkout_preference', param: 'id', locatable: 'checkout_preference' },
  ],
  [/^\/payment_links\/:id(\/|$)/, { type: 'payment_link', param: 'id', locatable: 'payment_link' }],
  [/^\/recurrent_payments\/:id(\/|$)/, { type: 'recurrent_payment', param: 'id', locatable: 'recurrent_payment' }],
  [/^\/webhook_endpoints\/:id(\/|$)/, { type: 'webhook_endpoint', param: 'id', locatable: 'webhook_endpoint' }],
  [/^\/events\/:id(\/|$)/, { type: 'event', param: 'id', locatable: 'event' }],
  [/^\/developers\/keys\/:id(\/|$)/, { type: 'api_key', param: 'id', locatable: 'api_key' }],
  [/^\/settings\/team\/:userId(\/|$)/, { type: 'member', param: 'userId', locatable: null }],
];

const objectOfRoute = (path: string): RouteObject | null => OBJECT_PATHS.find(([re]) => re.test(path))?.[1] ?? null;

/**
 * Ids of the shape the service hands out (22 characters; key references are base64url): only
 * these are looked for elsewhere after a 404, so a mistyped address costs no query.
 */
const WELL_FORMED_ID = /^[A-Za-z0-9_-]{22}$/;

/** A path as an audit entry keeps it: no query string, bounded. */
const auditPath = (req: FastifyRequest): string => (req.url.split('?')[0] ?? '').slice(0, 200);

export function createDashRouter(scope: FastifyInstance, means: RouterMeans): DashRouter {
  const { services } = means;
  const { refusals } = services.dashboard;

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

  /**
   * A refused attempt: always counted; written to the audit log (rate-limited) when a signed-in
   * user made it, in the user's merchant's log and, for another merchant's object, in that
   * merchant's log too (naming no e-mail there). Written before the refusal is answered, and a
   * failure to write never changes the answer.
   */
  const refuse = async (
    req: FastifyRequest,
    ctx: DashContext | null,
    reason: RefusalReason,
    attempted: string,
    object: RouteObject | null,
    ownerId: string | null = null,
  ): Promise<void> => {
    means.countRefusal(reason);
    if (!ctx) {
      return;
    }
    const id = object ? (req.params as Record<string, string | undefined>)[object.param] : undefined;
    const refusal = {
      reason,
      attempted,
      objectType: object?.type ?? null,
      objectId: id?.slice(0, 64) ?? null,
      method: req.method,
      path: auditPath(req),
    };
    try {
      await refusals.record(ctx.actor, ctx.merchantId, refusal);
      if (ownerId && ownerId !== ctx.merchantId) {
        await refusals.record({ ...ctx.actor, label: "another merchant's user" }, ownerId, refusal);
      }
    } catch (error) {
      req.log.error({ err: error }, 'refused attempt not written to the audit log');
    }
  };

  /**
   * Runs a signed-in handler. A NOT_FOUND for a well-formed id of an object kind the route
   * addresses is looked for once by id: if it belongs to another merchant or to the other mode,
   * the attempt is recorded; the answer stays the same 404 either way.
   */
  const run = async <G extends RouteGenericInterface>(
    handler: DashHandler<G>,
    req: FastifyRequest,
    reply: FastifyReply,
    ctx: DashContext,
    object: RouteObject | null,
    attempted: string,
  ): Promise<FastifyReply> => {
    try {
      return await handler(signedIn(req as FastifyRequest<G>, reply, ctx));
    } catch (error) {
      const id = object?.locatable ? (req.params as Record<string, string | undefined>)[object.param] : undefined;
      if (
        object?.locatable &&
        id &&
        error instanceof AppError &&
        error.code === 'NOT_FOUND' &&
        WELL_FORMED_ID.test(id)
      ) {
        const found = await refusals.misplaced(object.locatable, id, ctx.merchantId, ctx.mode).catch(() => null);
        if (found) {
          await refuse(req, ctx, found.reason, attempted, object, found.ownerId);
        }
      }
      throw error;
    }
  };

  /**
   * Opens the session (or answers without one), refuses a role without `need` with the 403
   * page, then runs the handler.
   */
  const runSignedIn = async <G extends RouteGenericInterface>(
    handler: DashHandler<G>,
    req: FastifyRequest,
    reply: FastifyReply,
    mode: Mode,
    base: string,
    need: Action | null,
    object: RouteObject | null,
    attempted: string,
  ): Promise<FastifyReply> => {
    const ctx = await means.openSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    if (need && !ctx.can(need)) {
      await refuse(req, ctx, 'role', need, object);
      return means.sendForbidden(req, reply, ctx);
    }
    return run(handler, req, reply, ctx, object, attempted);
  };

  return {
    page<G extends RouteGenericInterface>(path: string, handler: DashHandler<G>, need?: Action) {
      const object = objectOfRoute(path);
      for (const [mode, base] of MODES) {
        scope.get(`${base}${path}`, (req, reply) =>
          runSignedIn(handler, req, reply, mode, base, need ?? null, object, need ?? 'read'),
        );
      }
    },
    action<G extends RouteGenericInterface>(path: string, need: Action | null, handler: DashHandler<G>) {
      const object = objectOfRoute(path);
      const attempted = need ?? 'signed-in';
      for (const [mode, base] of MODES) {
        scope.post(`${base}${path}`, async (req, reply) => {
          if (!means.csrfValid(req)) {
            await refuse(req, await means.sessionOf(req, mode, base), 'csrf', attempted, object);
            return means.sendCsrfRefused(req, reply);
          }
          return runSignedIn(handler, req, reply, mode, base, need, object, attempted);
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
        if (!means.csrfValid(req)) {
          // Counted only: no session to name, and these paths can carry bearer tokens.
          means.countRefusal('csrf');
          return means.sendCsrfRefused(req, reply);
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
