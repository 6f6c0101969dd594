import type { OwnAccount } from '../../../domain/dashboard/account.service.ts';
import type { ThrottledCheck } from '../../../domain/dashboard/credential-throttle.service.ts';
import type { ActiveSession } from '../../../domain/dashboard/dashboard-auth.service.ts';
import { formField } from '../../kit/form-input.ts';
import { qrSvg } from '../../kit/qr.ts';
import { t as tr } from '../i18n.ts';
import { LOCKED_OUT, lockedOut } from '../lockout.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { readCookie, SESSION_COOKIE } from '../session.ts';
import { securityPage } from '../views/account.views.ts';

/**
 * The signed-in user's own security: two-factor authentication (set up, confirm, turn off) and
 * the sessions signed in to the account. Security actions concern one's own account: every
 * role may take them. Confirming and turning off ask for the password again.
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
  extra: { codes?: string[]; errors?: string[]; status?: number } = {},
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
      codes: extra.codes,
      errors: extra.errors,
    }),
    extra.status ?? (extra.errors && extra.codes === undefined && !pending ? 400 : 200),
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

/** The signed-in user, this session and this address: whose second factor a change is about. */
const ownAccount = ({ req, ctx }: DashRequest): OwnAccount => ({
  userId: ctx.active.user.id,
  sessionIdHash: ctx.active.session.idHash,
  ip: req.ip,
});

/** The security page again with why the password was refused: not right (400), or locked out (429). */
function passwordRefused(r: DashRequest, refused: Exclude<ThrottledCheck, { kind: 'passed' }>) {
  return refused.kind === 'throttled'
    ? renderSecurity(r, r.ctx.active, {
        errors: [lockedOut(r.reply, r.ctx.m, refused.retryAfterSeconds)],
        status: LOCKED_OUT,
      })
    : renderSecurity(r, r.ctx.active, { errors: [tr('The password is not right.')], status: 400 });
}

async function confirmTwoFactor(r: DashRequest) {
  const { req, ctx, services } = r;
  const result = await services.dashboard.account.confirmTwoFactor(
    ownAccount(r),
    formField(req.body, 'password'),
    formField(req.body, 'code'),
  );
  switch (result.kind) {
    case 'throttled':
      return passwordRefused(r, result);
    case 'wrong-password':
      return passwordRefused(r, { kind: 'refused' });
    case 'wrong-code':
      return renderSecurity(r, ctx.active, {
        errors: [tr('That code is not right. Check the clock of your device and try the next code.')],
      });
    case 'on': {
      const fresh = await services.dashboard.auth.lookup(ctx.active.token);
      return renderSecurity(r, fresh ?? ctx.active, { codes: result.codes });
    }
  }
}

async function disableTwoFactor(r: DashRequest) {
  const { req, ctx, services, redirect } = r;
  const result = await services.dashboard.account.disableTwoFactor(ownAccount(r), formField(req.body, 'password'));
  if (result.kind !== 'passed') {
    return passwordRefused(r, result);
  }
  return redirect(`${ctx.base}/settings/security`);
}

async function endOtherSessions({ req, ctx, services, redirect }: DashRequest) {
  await services.dashboard.auth.signOutEverywhere(ctx.active.user.id, readCookie(req, SESSION_COOKIE));
  return redirect(`${ctx.base}/settings/security`);
}
