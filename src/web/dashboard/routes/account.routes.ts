import type { ActiveSession } from '../../../domain/dashboard/dashboard-auth.service.ts';
import { formField } from '../../kit/form-input.ts';
import { qrSvg } from '../../kit/qr.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { readCookie, SESSION_COOKIE } from '../session.ts';
import { securityPage } from '../views/account.views.ts';

/**
 * The signed-in user's own security: two-factor authentication (set up, confirm, turn off) and
 * the sessions signed in to the account. Security actions concern one's own account: every
 * role may take them.
 */
export function accountRoutes(r: DashRouter): void {
  r.page('/settings/security', showSecurity);
  r.action('/settings/security/2fa/start', 'read', startTwoFactor);
  r.action('/settings/security/2fa/confirm', 'read', confirmTwoFactor);
  r.action('/settings/security/2fa/disable', 'read', disableTwoFactor);
  r.action('/settings/security/sessions/end-others', 'read', endOtherSessions);
}

/** The security page for `active` (the request's session, or the same one read again after a change). */
async function renderSecurity(
  { ctx, services, render, csrfToken }: DashRequest,
  active: ActiveSession,
  extra: { codes?: string[]; errors?: string[] } = {},
) {
  const user = active.user;
  const pending = user.totpEnabledAt === null ? await services.dashboard.account.pendingTwoFactor(user.id) : null;
  const sessions = await services.dashboard.auth.sessions(user.id);
  const qr = pending && extra.codes === undefined ? await qrSvg(pending.uri, 'Two-factor enrolment QR code') : null;
  return render(
    'settings',
    tr('Security'),
    securityPage({
      base: ctx.base,
      csrf: csrfToken(),
      m: ctx.m,
      active,
      pending: pending && qr !== null ? { secret: pending.secret, qr } : null,
      sessions,
      ...extra,
    }),
    extra.errors && extra.codes === undefined && !pending ? 400 : 200,
  );
}

async function showSecurity(r: DashRequest) {
  return renderSecurity(r, r.ctx.active);
}

async function startTwoFactor({ ctx, services, redirect }: DashRequest) {
  if (ctx.active.user.totpEnabledAt === null) {
    await services.dashboard.account.beginTwoFactor(ctx.active.user.id);
  }
  return redirect(`${ctx.base}/settings/security`);
}

async function confirmTwoFactor(r: DashRequest) {
  const { req, ctx, services } = r;
  const codes = await services.dashboard.account.confirmTwoFactor(ctx.active.user.id, formField(req.body, 'code'));
  if (!codes) {
    return renderSecurity(r, ctx.active, {
      errors: [tr('That code is not right. Check the clock of your device and try the next code.')],
    });
  }
  const fresh = await services.dashboard.auth.lookup(ctx.active.token);
  return renderSecurity(r, fresh ?? ctx.active, { codes });
}

async function disableTwoFactor(r: DashRequest) {
  const { req, ctx, services, redirect } = r;
  if (!(await services.dashboard.account.disableTwoFactor(ctx.active.user.id, formField(req.body, 'password')))) {
    return renderSecurity(r, ctx.active, { errors: [tr('The password is not right.')] });
  }
  return redirect(`${ctx.base}/settings/security`);
}

async function endOtherSessions({ req, ctx, services, redirect }: DashRequest) {
  await services.dashboard.auth.signOutEverywhere(ctx.active.user.id, readCookie(req, SESSION_COOKIE));
  return redirect(`${ctx.base}/settings/security`);
}
