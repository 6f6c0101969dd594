import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/shared/errors.ts';
import { formField } from '../checkout/form-input.ts';
import type { DashTools } from './dash-tools.ts';
import { clearCookie, MERCHANT_COOKIE, PENDING_COOKIE, readCookie, SESSION_COOKIE, setCookie } from './session.ts';
import {
  forgotForm,
  invitationForm,
  messagePage,
  resetForm,
  secondFactorForm,
  signInForm,
} from './views/auth.views.ts';

type TokenParams = { token: string };

/** Where to go after sign-in: only a path of the dashboard itself (never another site). */
function safeNext(req: FastifyRequest): string {
  const next = (req.query as { next?: unknown } | undefined)?.next ?? formField(req.body, 'next');
  return typeof next === 'string' && /^\/dashboard(\/[A-Za-z0-9_/?=&%.-]*)?$/.test(next) && !next.startsWith('//')
    ? next
    : '/dashboard';
}

/**
 * Signing in and out, the second factor, invitations and password resets: the pages a person
 * sees before they are signed in. Every form post checks origin and CSRF token first.
 */
export function registerAuthRoutes(scope: FastifyInstance, t: DashTools): void {
  const { deps } = t;
  const auth = deps.dashboard.auth;

  scope.get('/dashboard/login', async (req, reply) => {
    const m = t.messagesOf(req);
    const notice = (req.query as { done?: string }).done === 'reset' ? m.resetDone : null;
    return t.sendPublic(req, reply, 200, m.signInTitle, signInForm(m, t.csrfToken(req, reply), '', [], notice));
  });

  scope.post('/dashboard/login', async (req, reply) => {
    if (!t.checkCsrf(req, reply)) {
      return reply;
    }
    const m = t.messagesOf(req);
    const email = formField(req.body, 'email').trim();
    const result = await auth.signIn(
      email,
      formField(req.body, 'password'),
      req.ip,
      String(req.headers['user-agent'] ?? ''),
    );
    if (result.kind !== 'signed-in') {
      if (result.kind === 'throttled') {
        reply.header('retry-after', String(result.retryAfterSeconds));
      }
      return t.sendPublic(
        req,
        reply,
        result.kind === 'throttled' ? 429 : 401,
        m.signInTitle,
        signInForm(
          m,
          t.csrfToken(req, reply),
          email,
          [result.kind === 'throttled' ? m.throttled : m.signInFailed],
          null,
        ),
      );
    }
    // Whatever session cookie the browser had is replaced: a planted one is worth nothing.
    clearCookie(reply, SESSION_COOKIE, t.https);
    if (result.needsSecondFactor) {
      setCookie(reply, PENDING_COOKIE, result.token, t.https);
      return t.seeOther(reply, `/dashboard/login/code?next=${encodeURIComponent(safeNext(req))}`);
    }
    setCookie(reply, SESSION_COOKIE, result.token, t.https);
    return t.seeOther(reply, safeNext(req));
  });

  scope.get('/dashboard/login/code', async (req, reply) => {
    const m = t.messagesOf(req);
    const pending = readCookie(req, PENDING_COOKIE);
    if (!pending || !(await auth.lookup(pending, 'PASSWORD'))) {
      return t.seeOther(reply, '/dashboard/login');
    }
    return t.sendPublic(req, reply, 200, m.secondFactorTitle, secondFactorForm(m, t.csrfToken(req, reply), []));
  });

  scope.post('/dashboard/login/code', async (req, reply) => {
    if (!t.checkCsrf(req, reply)) {
      return reply;
    }
    const m = t.messagesOf(req);
    const pending = readCookie(req, PENDING_COOKIE) ?? '';
    const result = await auth.secondFactor(
      pending,
      formField(req.body, 'code'),
      req.ip,
      String(req.headers['user-agent'] ?? ''),
    );
    if (result.kind !== 'signed-in') {
      if (!(await auth.lookup(pending, 'PASSWORD'))) {
        return t.seeOther(reply, '/dashboard/login');
      }
      return t.sendPublic(
        req,
        reply,
        result.kind === 'throttled' ? 429 : 401,
        m.secondFactorTitle,
        secondFactorForm(m, t.csrfToken(req, reply), [result.kind === 'throttled' ? m.throttled : m.signInFailed]),
      );
    }
    clearCookie(reply, PENDING_COOKIE, t.https);
    setCookie(reply, SESSION_COOKIE, result.token, t.https);
    return t.seeOther(reply, safeNext(req));
  });

  scope.post('/dashboard/logout', async (req, reply) => {
    if (!t.checkCsrf(req, reply)) {
      return reply;
    }
    const token = readCookie(req, SESSION_COOKIE);
    if (token) {
      await auth.signOut(token);
    }
    clearCookie(reply, SESSION_COOKIE, t.https);
    return t.seeOther(reply, '/dashboard/login');
  });

  // Which merchant the dashboard shows, for people in several: only one of their own.
  scope.post('/dashboard/merchant', async (req, reply) => {
    if (!t.checkCsrf(req, reply)) {
      return reply;
    }
    const token = readCookie(req, SESSION_COOKIE);
    const active = token ? await auth.lookup(token) : null;
    if (!active) {
      return t.seeOther(reply, '/dashboard/login');
    }
    const wanted = formField(req.body, 'merchant_id');
    if (active.memberships.some((x) => x.merchantId === wanted)) {
      setCookie(reply, MERCHANT_COOKIE, wanted, t.https);
    }
    return t.seeOther(reply, '/dashboard');
  });

  scope.get('/dashboard/forgot', async (req, reply) => {
    const m = t.messagesOf(req);
    const sent = (req.query as { sent?: string }).sent === '1';
    return t.sendPublic(req, reply, 200, m.resetTitle, forgotForm(m, t.csrfToken(req, reply), sent));
  });

  scope.post('/dashboard/forgot', async (req, reply) => {
    if (!t.checkCsrf(req, reply)) {
      return reply;
    }
    await deps.dashboard.account.requestReset(formField(req.body, 'email'));
    // The same answer whether or not the address has an account.
    return t.seeOther(reply, '/dashboard/forgot?sent=1');
  });

  const resetGone = (req: FastifyRequest, reply: Parameters<DashTools['seeOther']>[0]) => {
    const m = t.messagesOf(req);
    return t.sendPublic(
      req,
      reply,
      404,
      m.resetTitle,
      messagePage(m.resetTitle, m.resetGone, { href: '/dashboard/forgot', label: m.forgotPassword }),
    );
  };

  scope.get<{ Params: TokenParams }>('/dashboard/reset/:token', async (req, reply) => {
    const m = t.messagesOf(req);
    if (!(await deps.dashboard.account.openReset(req.params.token))) {
      return resetGone(req, reply);
    }
    return t.sendPublic(req, reply, 200, m.resetTitle, resetForm(m, t.csrfToken(req, reply), req.url, []));
  });

  scope.post<{ Params: TokenParams }>('/dashboard/reset/:token', async (req, reply) => {
    if (!t.checkCsrf(req, reply)) {
      return reply;
    }
    const m = t.messagesOf(req);
    try {
      const result = await deps.dashboard.account.reset(
        req.params.token,
        formField(req.body, 'password'),
        formField(req.body, 'confirm'),
      );
      if (!result.ok) {
        return t.sendPublic(
          req,
          reply,
          400,
          m.resetTitle,
          resetForm(m, t.csrfToken(req, reply), req.url, result.problems),
        );
      }
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') {
        return resetGone(req, reply);
      }
      throw error;
    }
    return t.seeOther(reply, '/dashboard/login?done=reset');
  });

  const invitationGone = (req: FastifyRequest, reply: Parameters<DashTools['seeOther']>[0]) => {
    const m = t.messagesOf(req);
    return t.sendPublic(req, reply, 404, m.invitationTitle, messagePage(m.invitationTitle, m.invitationGone, null));
  };

  scope.get<{ Params: TokenParams }>('/dashboard/invitations/:token', async (req, reply) => {
    const m = t.messagesOf(req);
    const inv = await deps.dashboard.team.openInvitation(req.params.token);
    if (!inv) {
      return invitationGone(req, reply);
    }
    return t.sendPublic(
      req,
      reply,
      200,
      m.invitationTitle,
      invitationForm(m, t.csrfToken(req, reply), req.url, inv, []),
    );
  });

  scope.post<{ Params: TokenParams }>('/dashboard/invitations/:token', async (req, reply) => {
    if (!t.checkCsrf(req, reply)) {
      return reply;
    }
    const m = t.messagesOf(req);
    const inv = await deps.dashboard.team.openInvitation(req.params.token);
    if (!inv) {
      return invitationGone(req, reply);
    }
    let result: Awaited<ReturnType<typeof deps.dashboard.team.accept>>;
    try {
      result = await deps.dashboard.team.accept(
        req.params.token,
        formField(req.body, 'password'),
        formField(req.body, 'confirm'),
        req.ip,
      );
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') {
        return invitationGone(req, reply);
      }
      throw error;
    }
    if (!result.ok) {
      return t.sendPublic(
        req,
        reply,
        400,
        m.invitationTitle,
        invitationForm(m, t.csrfToken(req, reply), req.url, inv, result.problems),
      );
    }
    // Accepting is not signing in: the new member signs in with the password just chosen.
    return t.seeOther(reply, '/dashboard/login');
  });
}
