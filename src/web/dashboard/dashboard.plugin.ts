import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RefusalReason } from '../../domain/dashboard/access-refusals.service.ts';
import { can } from '../../domain/dashboard/roles.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { Services } from '../../services.ts';
import type { ErrorPageKind } from '../kit/error-pages.ts';
import { registerHtmlErrorPages } from '../kit/error-pages.ts';
import { formField } from '../kit/form-input.ts';
import type { SafeHtml } from '../kit/html.ts';
import { toDocument } from '../kit/html.ts';
import { negotiateLanguage, negotiateLocale } from '../kit/locale.ts';
import { applySecurityHeaders, CSRF_FIELD, CsrfGuard, registerPageNonces } from '../kit/security.ts';
import { loadDashboardAssets } from './assets.ts';
import { dashboardMessages, withPageLocale } from './i18n.ts';
import type { DashContext, RouterMeans } from './router.ts';
import { createDashRouter } from './router.ts';
import { accountRoutes } from './routes/account.routes.ts';
import { apiKeysRoutes } from './routes/api-keys.routes.ts';
import { auditLogRoutes } from './routes/audit-log.routes.ts';
import { businessProfileRoutes } from './routes/business-profile.routes.ts';
import { checkoutPreferencesRoutes } from './routes/checkout-preferences.routes.ts';
import { developersRoutes } from './routes/developers.routes.ts';
import { eventsRoutes } from './routes/events.routes.ts';
import { homeRoutes } from './routes/home.routes.ts';
import { invitationsRoutes } from './routes/invitations.routes.ts';
import { passwordResetRoutes } from './routes/password-reset.routes.ts';
import { paymentConnectionsRoutes } from './routes/payment-connections.routes.ts';
import { paymentLinksRoutes } from './routes/payment-links.routes.ts';
import { paymentOrdersRoutes } from './routes/payment-orders.routes.ts';
import { recurrentPaymentsRoutes } from './routes/recurrent-payments.routes.ts';
import { settingsRoutes } from './routes/settings.routes.ts';
import { signInRoutes } from './routes/sign-in.routes.ts';
import { teamRoutes } from './routes/team.routes.ts';
import { webhookEndpointsRoutes } from './routes/webhook-endpoints.routes.ts';
import { webhookSettingsRoutes } from './routes/webhook-settings.routes.ts';
import { MERCHANT_COOKIE, readCookie, SESSION_COOKIE } from './session.ts';
import { messagePage } from './views/auth.views.ts';
import type { ShellContext } from './views/layout.ts';
import { publicPage, shell } from './views/layout.ts';

const HTML_TYPE = 'text/html; charset=utf-8';
/** Dashboard forms are small; a logo upload has its own, larger limit. */
const FORM_BODY_LIMIT = 64 * 1024;
/** Every dashboard form is bound to this scope in its CSRF token. */
export const CSRF_SCOPE = 'dashboard';

export type DashboardPagesOptions = Services & {
  /** Counts a refused attempt (role, CSRF, tenancy, mode) in the server's metrics. */
  countRefusal(reason: RefusalReason): void;
};

/**
 * The merchant dashboard, `/dashboard` (live data) and `/dashboard/test` (test data): server
 * rendered, usable without JavaScript, the checkout's security headers (strict CSP with a nonce
 * per response), every value escaped by the `html` tag, every POST checked for origin, CSRF
 * token, session and role. Pages call the same domain services as the API.
 */
export const dashboardPages: FastifyPluginAsync<DashboardPagesOptions> = async (app, deps) => {
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
    const messagesOf = (req: FastifyRequest) => dashboardMessages(negotiateLanguage(req.headers['accept-language']));
    const assetPaths = { css: assets.css.path, js: assets.js.path };

    const send = (req: FastifyRequest, reply: FastifyReply, status: number, page: SafeHtml): FastifyReply => {
      applySecurityHeaders(reply, { nonce: nonceOf(req), https });
      return reply.code(status).header('content-type', HTML_TYPE).send(toDocument(page));
    };

    const sendPublic: RouterMeans['sendPublic'] = (req, reply, status, title, body) =>
      send(
        req,
        reply,
        status,
        publicPage({ m: messagesOf(req), nonce: nonceOf(req), assets: assetPaths }, title, body),
      );

    const csrfToken: RouterMeans['csrfToken'] = (req, reply) => csrf.tokenFor(req, reply, CSRF_SCOPE);

    const sendShell: RouterMeans['sendShell'] = (req, reply, ctx, section, title, body, status) => {
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

    const csrfValid: RouterMeans['csrfValid'] = (req) => {
      const token = formField(req.body, CSRF_FIELD);
      return csrf.check(req, CSRF_SCOPE, token === '' ? null : token);
    };
    const sendCsrfRefused: RouterMeans['sendCsrfRefused'] = (req, reply) =>
      errorPage(
        req,
        reply,
        403,
        messagesOf(req).t('This form has expired. Go back, reload the page and send it again.'),
      );

    /** The signed-in context, or why there is none: no valid session, or no merchant left. */
    const resolveSession = async (
      req: FastifyRequest,
      mode: Mode,
      base: string,
    ): Promise<DashContext | 'signed-out' | 'no-merchant'> => {
      const token = readCookie(req, SESSION_COOKIE);
      const active = token ? await deps.dashboard.auth.lookup(token) : null;
      if (!active) {
        return 'signed-out';
      }
      const chosen = readCookie(req, MERCHANT_COOKIE);
      const membership = active.memberships.find((x) => x.merchantId === chosen) ?? active.memberships[0];
      if (!membership) {
        return 'no-merchant';
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
        can: (action) => can(membership.role, action, mode),
      };
    };

    const openSession: RouterMeans['openSession'] = async (req, reply, mode, base) => {
      const found = await resolveSession(req, mode, base);
      if (found === 'signed-out') {
        if (req.method === 'GET') {
          const next = req.url.startsWith('/dashboard') ? req.url : '/dashboard';
          reply
            .code(303)
            .header('location', `/dashboard/login?next=${encodeURIComponent(next)}`)
            .send();
        } else {
          errorPage(req, reply, 401, messagesOf(req).t('Sign in to your dashboard'));
        }
        return null;
      }
      if (found === 'no-merchant') {
        errorPage(req, reply, 403, messagesOf(req).t('Your account does not belong to any merchant any more.'));
        return null;
      }
      return found;
    };

    const sessionOf: RouterMeans['sessionOf'] = async (req, mode, base) => {
      const found = await resolveSession(req, mode, base);
      return typeof found === 'string' ? null : found;
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

    const router = createDashRouter(scope, {
      services: deps,
      https,
      messagesOf,
      csrfToken,
      csrfValid,
      sendCsrfRefused,
      openSession,
      sessionOf,
      countRefusal: deps.countRefusal,
      sendForbidden: (req, reply, ctx) => errorPage(req, reply, 403, ctx.m.t('Your role does not allow this.')),
      sendShell,
      sendPublic,
    });
    homeRoutes(router);
    paymentLinksRoutes(router);
    recurrentPaymentsRoutes(router);
    paymentOrdersRoutes(router);
    checkoutPreferencesRoutes(router);
    developersRoutes(router);
    apiKeysRoutes(router);
    webhookEndpointsRoutes(router);
    webhookSettingsRoutes(router);
    eventsRoutes(router);
    signInRoutes(router);
    passwordResetRoutes(router);
    invitationsRoutes(router);
    accountRoutes(router);
    teamRoutes(router);
    auditLogRoutes(router);
    settingsRoutes(router);
    businessProfileRoutes(router);
    paymentConnectionsRoutes(router);
  });
};
