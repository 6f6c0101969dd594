import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignInResult } from '../../../domain/dashboard/dashboard-auth.service.ts';
import { formField } from '../../kit/form-input.ts';
import type { DashboardMessages } from '../i18n.ts';
import { LOCKED_OUT, lockedOut } from '../lockout.ts';
import type { DashRouter, PublicRequest } from '../router.ts';
import { clearCookie, MERCHANT_COOKIE, PENDING_COOKIE, readCookie, SESSION_COOKIE, setCookie } from '../session.ts';
import { secondFactorForm, signInForm } from '../views/auth.views.ts';

/**
 * Signing in (password, then the second factor when the account has one), signing out and
 * choosing which merchant the dashboard shows. Sign-out and the merchant switch read the
 * session cookie themselves: without a session they send the browser to the sign-in page.
 */
export function signInRoutes(r: DashRouter): void {
  r.publicPage('/dashboard/login', showSignIn);
  r.publicAction('/dashboard/login', signIn);
  r.publicPage('/dashboard/login/code', showSecondFactor);
  r.publicAction('/dashboard/login/code', checkSecondFactor);
  r.publicAction('/dashboard/logout', signOut);
  r.publicAction('/dashboard/merchant', switchMerchant);
}

/** Where to go after sign-in: only a path of the dashboard itself (never another site). */
function safeNext(req: FastifyRequest): string {
  const next = (req.query as { next?: unknown } | undefined)?.next ?? formField(req.body, 'next');
  return typeof next === 'string' && /^\/dashboard(\/[A-Za-z0-9_/?=&%.-]*)?$/.test(next) && !next.startsWith('//')
    ? next
    : '/dashboard';
}

const userAgentOf = (req: FastifyRequest) => String(req.headers['user-agent'] ?? '');

/** What the password step and the code step say when they refuse, and with which status. */
function refusal(
  reply: FastifyReply,
  m: DashboardMessages,
  result: Exclude<SignInResult, { kind: 'signed-in' }>,
): { problem: string; status: number } {
  return result.kind === 'throttled'
    ? { problem: lockedOut(reply, m, result.retryAfterSeconds), status: LOCKED_OUT }
    : { problem: m.t('The e-mail or the password is not right.'), status: 401 };
}

async function showSignIn({ req, m, render, csrfToken }: PublicRequest<{ Querystring: { done?: string } }>) {
  const notice = req.query.done === 'reset' ? m.t('Your password is changed. Sign in with it.') : null;
  return render(m.t('Sign in to your dashboard'), signInForm(m, csrfToken(), '', [], notice));
}

async function signIn({ req, reply, services, m, https, render, redirect, csrfToken }: PublicRequest) {
  const email = formField(req.body, 'email').trim();
  const result = await services.dashboard.auth.signIn(email, formField(req.body, 'password'), req.ip, userAgentOf(req));
  if (result.kind !== 'signed-in') {
    const { problem, status } = refusal(reply, m, result);
    return render(m.t('Sign in to your dashboard'), signInForm(m, csrfToken(), email, [problem], null), status);
  }
  // Whatever session cookie the browser had is replaced: a planted one is worth nothing.
  clearCookie(reply, SESSION_COOKIE, https);
  if (result.needsSecondFactor) {
    setCookie(reply, PENDING_COOKIE, result.token, https);
    return redirect(`/dashboard/login/code?next=${encodeURIComponent(safeNext(req))}`);
  }
  setCookie(reply, SESSION_COOKIE, result.token, https);
  return redirect(safeNext(req));
}

async function showSecondFactor({ req, services, m, render, redirect, csrfToken }: PublicRequest) {
  const pending = readCookie(req, PENDING_COOKIE);
  if (!pending || !(await services.dashboard.auth.lookup(pending, 'PASSWORD'))) {
    return redirect('/dashboard/login');
  }
  return render(m.t('Two-factor authentication'), secondFactorForm(m, csrfToken(), []));
}

async function checkSecondFactor({ req, reply, services, m, https, render, redirect, csrfToken }: PublicRequest) {
  const auth = services.dashboard.auth;
  const pending = readCookie(req, PENDING_COOKIE) ?? '';
  const result = await auth.secondFactor(pending, formField(req.body, 'code'), req.ip, userAgentOf(req));
  if (result.kind !== 'signed-in') {
    if (!(await auth.lookup(pending, 'PASSWORD'))) {
      return redirect('/dashboard/login');
    }
    const { problem, status } = refusal(reply, m, result);
    return render(m.t('Two-factor authentication'), secondFactorForm(m, csrfToken(), [problem]), status);
  }
  clearCookie(reply, PENDING_COOKIE, https);
  setCookie(reply, SESSION_COOKIE, result.token, https);
  return redirect(safeNext(req));
}

async function signOut({ req, reply, services, https, redirect }: PublicRequest) {
  const token = readCookie(req, SESSION_COOKIE);
  if (token) {
    await services.dashboard.auth.signOut(token);
  }
  clearCookie(reply, SESSION_COOKIE, https);
  return redirect('/dashboard/login');
}

/** Which merchant the dashboard shows, for people in several: only one of their own. */
async function switchMerchant({ req, reply, services, https, redirect }: PublicRequest) {
  const token = readCookie(req, SESSION_COOKIE);
  const active = token ? await services.dashboard.auth.lookup(token) : null;
  if (!active) {
    return redirect('/dashboard/login');
  }
  const wanted = formField(req.body, 'merchant_id');
  if (active.memberships.some((x) => x.merchantId === wanted)) {
    setCookie(reply, MERCHANT_COOKIE, wanted, https);
  }
  return redirect('/dashboard');
}
