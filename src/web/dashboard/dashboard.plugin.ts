import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Action } from '../../domain/dashboard/roles.ts';
import { can } from '../../domain/dashboard/roles.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import { AppError } from '../../domain/shared/errors.ts';
import type { Services } from '../../services.ts';
import type { ErrorPageKind } from '../kit/error-pages.ts';
import { registerHtmlErrorPages } from '../kit/error-pages.ts';
import { formField } from '../kit/form-input.ts';
import type { SafeHtml } from '../kit/html.ts';
import { toDocument } from '../kit/html.ts';
import { negotiateLocale } from '../kit/locale.ts';
import { applySecurityHeaders, CSRF_FIELD, CsrfGuard, registerPageNonces } from '../kit/security.ts';
import { loadDashboardAssets } from './assets.ts';
import { registerDevelopersRoutes } from './developers.routes.ts';
import type { DashboardMessages } from './i18n.ts';
import { dashboardMessages, withPageLocale } from './i18n.ts';
import { registerPaymentsRoutes } from './payments.routes.ts';
import { createDashRouter } from './router.ts';
import { accountRoutes } from './routes/account.routes.ts';
import { auditLogRoutes } from './routes/audit-log.routes.ts';
import { businessProfileRoutes } from './routes/business-profile.routes.ts';
import { homeRoutes } from './routes/home.routes.ts';
import { invitationsRoutes } from './routes/invitations.routes.ts';
import { passwordResetRoutes } from './routes/password-reset.routes.ts';
import { settingsRoutes } from './routes/settings.routes.ts';
import { signInRoutes } from './routes/sign-in.routes.ts';
import { teamRoutes } from './routes/team.routes.ts';
import { MERCHANT_COOKIE, readCookie, SESSION_COOKIE } from './session.ts';
import { registerSubscriptionRoutes } from './subscriptions.routes.ts';
import { messagePage } from './views/auth.views.ts';
import type { Section, ShellContext } from './views/layout.ts';
import { publicPage, shell } from './views/layout.ts';

const HTML_TYPE = 'text/html; charset=utf-8';
/** Dashboard forms are small; a logo upload has its own, larger limit. */
const FORM_BODY_LIMIT = 64 * 1024;
/** Every dashboard form is bound to this scope in its CSRF token. */
export const CSRF_SCOPE = 'dashboard';

import type { DashContext } from './router.ts';

export type { DashContext };

/** The tools every route group gets from the plugin. */
export type DashTools = {
  deps: Services;
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

/**
 * The merchant dashboard, `/dashboard` (live data) and `/dashboard/test` (test data): server
 * rendered, usable without JavaScript, the checkout's security headers (strict CSP with a nonce
 * per response), every value escaped by the `html` tag, every POST checked for origin, CSRF
 * token, session and role. Pages call the same domain services as the API.
 */
export const dashboardPages: FastifyPluginAsync<Services> = async (app, deps) => {
  const publicBase = new URL(deps.publicUrl);
  const https = publicBase.protocol === 'https:';
  const csrf = new CsrfGuard(deps.csrfKey, publicBase.origin, https, '/dashboard');
  const assets = loadDashboardAssets();

  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });

  await app.register(async (scope: FastifyInstance) => {
    // Pages, not API operations: none of them belongs in /openapi.json.
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    const nonceOf = registerPageNonces(scope, https);
    scope.addHook('onRequest', (req, _reply, done) =>
      withPageLocale(negotiateLocale(req.headers['accept-language']), done),
    );
    const messagesOf = (req: FastifyRequest) => dashboardMessages(negotiateLocale(req.headers['accept-language']));
    const assetPaths = { css: assets.css.path, js: assets.js.path };

    const send = (req: FastifyRequest, reply: FastifyReply, status: number, page: SafeHtml): FastifyReply => {
      applySecurityHeaders(reply, { nonce: nonceOf(req), https });
      return reply.code(status).header('content-type', HTML_TYPE).send(toDocument(page));
    };

    const sendPublic: DashTools['sendPublic'] = (req, reply, status, title, body) =>
      send(
        req,
        reply,
        status,
        publicPage({ m: messagesOf(req), nonce: nonceOf(req), assets: assetPaths }, title, body),
      );

    const csrfToken: DashTools['csrfToken'] = (req, reply) => csrf.tokenFor(req, reply, CSRF_SCOPE);

    const sendShell: DashTools['sendShell'] = (req, reply, ctx, section, title, body, status = 200) => {
      const path = req.url.split('?')[0] ?? ctx.base;
      const rest = path.startsWith(ctx.base) ? path.slice(ctx.base.length) : '';
      const otherBase = ctx.mode === 'test' ? '/dashboard' : '/dashboard/test';
      const shellCtx: ShellContext = {
        m: ctx.m,
        nonce: nonceOf(req),
        assets: assetPaths,
        csrfToken: csrfToken(req, reply),
        mode: ctx.mode,
        base: ctx.base,
        // An object page exists only in its own mode: the switch goes to the section instead.
        otherModeHref: `${otherBase}${/^\/[a-z_]+\/[A-Za-z0-9]+/.test(rest) ? `/${rest.split('/')[1]}` : rest}`,
        userEmail: ctx.active.user.email,
        merchantName: ctx.merchantName,
        merchantId: ctx.merchantId,
        merchants: ctx.merchants,
        role: ctx.role,
      };
      return send(req, reply, status, shell(shellCtx, section, title, body));
    };

    const errorPage = (req: FastifyRequest, reply: FastifyReply, status: number, text: string): FastifyReply => {
      const m = messagesOf(req);
      return sendPublic(
        req,
        reply,
        status,
        m.t('Cobro dashboard'),
        messagePage(m.t('Cobro dashboard'), text, { href: '/dashboard', label: m.t('Home') }),
      );
    };

    const checkCsrf: DashTools['checkCsrf'] = (req, reply) => {
      const token = formField(req.body, CSRF_FIELD);
      if (!csrf.check(req, CSRF_SCOPE, token === '' ? null : token)) {
        errorPage(
          req,
          reply,
          403,
          messagesOf(req).t('This form has expired. Go back, reload the page and send it again.'),
        );
        return false;
      }
      return true;
    };

    const seeOther: DashTools['seeOther'] = (reply, location) => reply.code(303).header('location', location).send();

    const requireSession: DashTools['requireSession'] = async (req, reply, mode, base) => {
      const token = readCookie(req, SESSION_COOKIE);
      const active = token ? await deps.dashboard.auth.lookup(token) : null;
      if (!active) {
        if (req.method === 'GET') {
          const next = req.url.startsWith('/dashboard') ? req.url : '/dashboard';
          seeOther(reply, `/dashboard/login?next=${encodeURIComponent(next)}`);
        } else {
          errorPage(req, reply, 401, messagesOf(req).t('Sign in to your dashboard'));
        }
        return null;
      }
      const chosen = readCookie(req, MERCHANT_COOKIE);
      const membership = active.memberships.find((x) => x.merchantId === chosen) ?? active.memberships[0];
      if (!membership) {
        errorPage(req, reply, 403, messagesOf(req).t('Your account does not belong to any merchant any more.'));
        return null;
      }
      // Every page needs the current merchant's name; the others only for the switcher.
      const shown = active.memberships.length > 1 ? active.memberships : [membership];
      const merchants = await Promise.all(
        shown.map(async (x) => ({
          id: x.merchantId,
          name: (await deps.dashboard.team.merchant(x.merchantId))?.name ?? x.merchantId,
        })),
      );
      const merchant = merchants.find((x) => x.id === membership.merchantId);
      return {
        active,
        merchantId: membership.merchantId,
        merchantName: merchant?.name ?? '',
        merchants,
        role: membership.role,
        mode,
        base,
        m: messagesOf(req),
        actor: { userId: active.user.id, label: active.user.email, ip: req.ip },
        can: (action) => can(membership.role, action),
      };
    };

    const requirePermission: DashTools['requirePermission'] = async (req, reply, mode, base, action) => {
      const ctx = await requireSession(req, reply, mode, base);

      if (ctx && !ctx.can(action)) {
        throw new AppError('FORBIDDEN', ['your role does not allow this']);
      }

      return ctx;
    };

    const authorize: DashTools['authorize'] = async (req, reply, mode, base, action) => {
      if (!checkCsrf(req, reply)) {
        return null;
      }
      const ctx = await requireSession(req, reply, mode, base);
      if (!ctx) {
        return null;
      }
      if (!ctx.can(action)) {
        errorPage(req, reply, 403, ctx.m.t('Your role does not allow this.'));
        return null;
      }
      return ctx;
    };

    const pageFor = (req: FastifyRequest, reply: FastifyReply, status: number, kind: ErrorPageKind) => {
      const m = messagesOf(req);
      return errorPage(
        req,
        reply,
        status,
        status === 403
          ? m.t('Your role does not allow this.')
          : kind === 'notFound'
            ? m.t('There is nothing here.')
            : kind === 'badRequest'
              ? m.t('This request could not be understood.')
              : m.t('Something went wrong on our side. Nothing was changed; try again.'),
      );
    };
    // The error handler of this scope; unknown paths get the same 404 page through a catch-all
    // (one not-found handler per prefix, and the checkout's already holds the root).
    registerHtmlErrorPages(scope, 'dashboard page', pageFor, { notFound: false });
    scope.route({
      method: ['GET', 'HEAD', 'POST'],
      url: '/dashboard/*',
      handler: (req, reply) => pageFor(req, reply, 404, 'notFound'),
    });

    scope.get(assets.css.path, (_req, reply) =>
      reply
        .header('content-type', assets.css.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(assets.css.body),
    );
    scope.get(assets.js.path, (_req, reply) =>
      reply
        .header('content-type', assets.js.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(assets.js.body),
    );

    const tools: DashTools = {
      deps,
      https,
      messagesOf,
      csrfToken,
      checkCsrf,
      sendPublic,
      sendShell,
      requireSession,
      requirePermission,
      authorize,
      seeOther,
    };
    const router = createDashRouter(scope, {
      services: deps,
      https,
      messagesOf,
      csrfToken,
      checkCsrf,
      openSession: requireSession,
      sendForbidden: (req, reply, ctx) => errorPage(req, reply, 403, ctx.m.t('Your role does not allow this.')),
      sendShell,
      sendPublic,
    });
    homeRoutes(router);
    signInRoutes(router);
    passwordResetRoutes(router);
    invitationsRoutes(router);
    accountRoutes(router);
    teamRoutes(router);
    auditLogRoutes(router);
    settingsRoutes(router);
    businessProfileRoutes(router);
    for (const [mode, base] of [
      ['live', '/dashboard'],
      ['test', '/dashboard/test'],
    ] as const) {
      registerPaymentsRoutes(scope, tools, mode, base);
      registerSubscriptionRoutes(scope, tools, mode, base);
      registerDevelopersRoutes(scope, tools, mode, base);
    }
  });
};
