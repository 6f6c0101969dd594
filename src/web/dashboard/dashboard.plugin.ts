import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { can } from '../../domain/dashboard/roles.ts';
import { AppError } from '../../domain/shared/errors.ts';
import type { RouteDeps } from '../../http/routes/deps.ts';
import { formField } from '../checkout/form-input.ts';
import type { SafeHtml } from '../checkout/html.ts';
import { toDocument } from '../checkout/html.ts';
import type { ErrorPageKind } from '../checkout/html-errors.ts';
import { registerHtmlErrorPages } from '../checkout/html-errors.ts';
import { negotiateLocale } from '../checkout/i18n.ts';
import { applySecurityHeaders, CSRF_FIELD, CsrfGuard, registerPageNonces } from '../checkout/security.ts';
import { registerAccountRoutes } from './account.routes.ts';
import { loadDashboardAssets } from './assets.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import type { DashTools } from './dash-tools.ts';
import { registerDevelopersRoutes } from './developers.routes.ts';
import { registerHomeRoutes } from './home.routes.ts';
import { dashboardMessages, withPageLocale } from './i18n.ts';
import { registerPaymentsRoutes } from './payments.routes.ts';
import { MERCHANT_COOKIE, readCookie, SESSION_COOKIE } from './session.ts';
import { registerSettingsRoutes } from './settings.routes.ts';
import { registerSubscriptionRoutes } from './subscriptions.routes.ts';
import { messagePage } from './views/auth.views.ts';
import type { ShellContext } from './views/layout.ts';
import { publicPage, shell } from './views/layout.ts';

const HTML_TYPE = 'text/html; charset=utf-8';
/** Dashboard forms are small; a logo upload has its own, larger limit. */
const FORM_BODY_LIMIT = 64 * 1024;
/** Every dashboard form is bound to this scope in its CSRF token. */
export const CSRF_SCOPE = 'dashboard';

/**
 * The merchant dashboard, `/dashboard` (live data) and `/dashboard/test` (test data): server
 * rendered, usable without JavaScript, the checkout's security headers (strict CSP with a nonce
 * per response), every value escaped by the `html` tag, every POST checked for origin, CSRF
 * token, session and role. Pages call the same domain services as the API.
 */
export const dashboardPages: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
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
        m.dashboard,
        messagePage(m.dashboard, text, { href: '/dashboard', label: m.home }),
      );
    };

    const checkCsrf: DashTools['checkCsrf'] = (req, reply) => {
      const token = formField(req.body, CSRF_FIELD);
      if (!csrf.check(req, CSRF_SCOPE, token === '' ? null : token)) {
        errorPage(req, reply, 403, messagesOf(req).csrf);
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
          errorPage(req, reply, 401, messagesOf(req).signInTitle);
        }
        return null;
      }
      const chosen = readCookie(req, MERCHANT_COOKIE);
      const membership = active.memberships.find((x) => x.merchantId === chosen) ?? active.memberships[0];
      if (!membership) {
        errorPage(req, reply, 403, messagesOf(req).noMerchant);
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
        errorPage(req, reply, 403, ctx.m.forbidden);
        return null;
      }
      return ctx;
    };

    const pageFor = (req: FastifyRequest, reply: FastifyReply, status: number, kind: ErrorPageKind) => {
      const m = messagesOf(req);
      return errorPage(req, reply, status, status === 403 ? m.forbidden : m[kind]);
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
    registerAuthRoutes(scope, tools);
    for (const [mode, base] of [
      ['live', '/dashboard'],
      ['test', '/dashboard/test'],
    ] as const) {
      registerHomeRoutes(scope, tools, mode, base);
      registerAccountRoutes(scope, tools, mode, base);
      registerPaymentsRoutes(scope, tools, mode, base);
      registerSubscriptionRoutes(scope, tools, mode, base);
      registerSettingsRoutes(scope, tools, mode, base);
      registerDevelopersRoutes(scope, tools, mode, base);
    }
  });
};
