import type { FastifyInstance } from 'fastify';
import type { Mode } from '../../domain/merchants/merchant.ts';
import { qrSvg } from '../../providers/shared/qr.ts';
import { formField } from '../checkout/form-input.ts';
import { html, trustedMarkup } from '../checkout/html.ts';
import type { DashTools } from './dash-tools.ts';
import { formatTime, t as tr } from './i18n.ts';
import { readCookie, SESSION_COOKIE } from './session.ts';
import { csrfField, problems } from './views/layout.ts';

const ROLE_OPTIONS = ['owner', 'admin', 'developer', 'viewer'] as const;

const time = (ms: number) => html`<time datetime="${new Date(ms).toISOString()}">${formatTime(ms)}</time>`;

/**
 * Settings that concern people: one's own security (two-factor, sessions), the team (owners
 * only) and the audit log (owners only). Served under both modes so the navigation never leaves one.
 */
export function registerAccountRoutes(scope: FastifyInstance, t: DashTools, mode: Mode, base: string): void {
  const { deps } = t;

  scope.get(`${base}/settings`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const links = [
      { href: `${base}/settings/profile`, label: tr('Business profile'), show: true },
      { href: `${base}/settings/payments`, label: tr('Payment settings'), show: true },
      { href: `${base}/settings/security`, label: tr('Security'), show: true },
      { href: `${base}/settings/team`, label: tr('Team'), show: ctx.can('team.manage') },
      { href: `${base}/settings/audit`, label: tr('Audit log'), show: ctx.can('team.manage') },
    ];
    return t.sendShell(
      req,
      reply,
      ctx,
      'settings',
      'Settings',
      html`<h1>Settings</h1><ul>${links.filter((l) => l.show).map((l) => html`<li><a href="${l.href}">${l.label}</a></li>`)}</ul>`,
    );
  });

  // ---- Security: two-factor and sessions -------------------------------------------------
  const securityPage = async (
    req: Parameters<DashTools['requireSession']>[0],
    reply: Parameters<DashTools['requireSession']>[1],
    ctx: NonNullable<Awaited<ReturnType<DashTools['requireSession']>>>,
    extra: { codes?: string[]; errors?: string[] } = {},
  ) => {
    const user = ctx.active.user;
    const pending = user.totpEnabledAt === null ? await deps.dashboard.account.pendingTwoFactor(user.id) : null;
    const sessions = await deps.dashboard.auth.sessions(user.id);
    const csrf = t.csrfToken(req, reply);
    const twoFactor =
      extra.codes !== undefined
        ? html`<p class="notice" role="status">${tr('Two-factor authentication is on. Keep these recovery codes somewhere safe: each works once, and they are shown only now.')}</p>
<ul class="codes" data-test="recovery-codes">${extra.codes.map((c) => html`<li>${c}</li>`)}</ul>`
        : user.totpEnabledAt !== null
          ? html`<p data-test="2fa-state">Two-factor authentication is on since ${time(user.totpEnabledAt)}. Recovery codes left: ${user.recoveryCodes.length}.</p>
<form method="post" action="${base}/settings/security/2fa/disable">${csrfField(csrf)}
<div class="field"><label for="disable-password">Password</label><input id="disable-password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit" class="button--secondary">${tr('Turn off two-factor authentication')}</button></form>`
          : pending
            ? html`<p>${tr('Scan this code with an authenticator app (or type the key), then enter the 6-digit code it shows.')}</p>
<div class="qr">${trustedMarkup(await qrSvg(pending.uri, 'Two-factor enrolment QR code'))}</div>
<p>${tr('Key:')} <code class="mono" data-test="totp-secret">${pending.secret}</code></p>
${problems(extra.errors ?? [])}
<form method="post" action="${base}/settings/security/2fa/confirm">${csrfField(csrf)}
<div class="field"><label for="code">${tr('Code')}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="6"></div>
<button type="submit">${tr('Turn on two-factor authentication')}</button></form>`
            : html`<p data-test="2fa-state">${tr('Two-factor authentication is off.')}</p>
<form method="post" action="${base}/settings/security/2fa/start">${csrfField(csrf)}<button type="submit">${tr('Set up two-factor authentication')}</button></form>`;
    return t.sendShell(
      req,
      reply,
      ctx,
      'settings',
      tr('Security'),
      html`<h1>${tr('Security')}</h1>
<section aria-labelledby="tfa"><h2 id="tfa">${tr('Two-factor authentication')}</h2>${twoFactor}</section>
<section aria-labelledby="sessions"><h2 id="sessions">${tr('Active sessions')}</h2>
<div class="table-wrap" tabindex="0"><table><caption>${tr('Where you are signed in')}</caption>
<thead><tr><th scope="col">${tr('Signed in')}</th><th scope="col">${tr('Last seen')}</th><th scope="col">${tr('Address')}</th><th scope="col">${tr('Browser')}</th></tr></thead>
<tbody>${sessions.map(
        (s) =>
          html`<tr><td>${time(s.createdAt)}${s.idHash === ctx.active.session.idHash ? html` <span class="badge">${tr('this one')}</span>` : null}</td><td>${time(s.lastSeenAt)}</td><td>${s.ip}</td><td>${s.userAgent.slice(0, 80)}</td></tr>`,
      )}</tbody></table></div>
<form method="post" action="${base}/settings/security/sessions/end-others">${csrfField(csrf)}<button type="submit" class="button--secondary">${ctx.m.signOutEverywhere}</button></form>
</section>`,
      extra.errors && extra.codes === undefined && !pending ? 400 : 200,
    );
  };

  scope.get(`${base}/settings/security`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    return ctx ? securityPage(req, reply, ctx) : reply;
  });

  // Security actions concern one's own account: every role may take them.
  scope.post(`${base}/settings/security/2fa/start`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'read');
    if (!ctx) {
      return reply;
    }
    if (ctx.active.user.totpEnabledAt === null) {
      await deps.dashboard.account.beginTwoFactor(ctx.active.user.id);
    }
    return t.seeOther(reply, `${base}/settings/security`);
  });

  scope.post(`${base}/settings/security/2fa/confirm`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'read');
    if (!ctx) {
      return reply;
    }
    const codes = await deps.dashboard.account.confirmTwoFactor(ctx.active.user.id, formField(req.body, 'code'));
    if (!codes) {
      return securityPage(req, reply, ctx, {
        errors: [tr('That code is not right. Check the clock of your device and try the next code.')],
      });
    }
    const fresh = await deps.dashboard.auth.lookup(ctx.active.token);
    return securityPage(req, reply, fresh ? { ...ctx, active: fresh } : ctx, { codes });
  });

  scope.post(`${base}/settings/security/2fa/disable`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'read');
    if (!ctx) {
      return reply;
    }
    if (!(await deps.dashboard.account.disableTwoFactor(ctx.active.user.id, formField(req.body, 'password')))) {
      return securityPage(req, reply, ctx, { errors: [tr('The password is not right.')] });
    }
    return t.seeOther(reply, `${base}/settings/security`);
  });

  scope.post(`${base}/settings/security/sessions/end-others`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'read');
    if (!ctx) {
      return reply;
    }
    await deps.dashboard.auth.signOutEverywhere(ctx.active.user.id, readCookie(req, SESSION_COOKIE));
    return t.seeOther(reply, `${base}/settings/security`);
  });

  // ---- Team (owners) ----------------------------------------------------------------------
  scope.get(`${base}/settings/team`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'team.manage');
    if (!ctx) {
      return reply;
    }
    const [members, invitations] = await Promise.all([
      deps.dashboard.team.members(ctx.merchantId),
      deps.dashboard.team.pendingInvitations(ctx.merchantId),
    ]);
    const csrf = t.csrfToken(req, reply);
    const invited = (req.query as { invited?: string }).invited;
    return t.sendShell(
      req,
      reply,
      ctx,
      'settings',
      tr('Team'),
      html`<h1>${tr('Team')}</h1>
${invited ? html`<p class="notice" role="status" data-test="invited">${tr('Invitation sent. The link is valid for 72 hours.')}</p>` : null}
<div class="table-wrap" tabindex="0"><table data-test="members"><caption>${tr('Members')}</caption>
<thead><tr><th scope="col">Email</th><th scope="col">${tr('Role')}</th><th scope="col">${tr('Two-factor')}</th><th scope="col">${tr('Actions')}</th></tr></thead>
<tbody>${members.map(
        (mem) => html`<tr><td>${mem.email}</td><td>
<form method="post" action="${base}/settings/team/${mem.userId}/role" class="inline-form">${csrfField(csrf)}
<label class="visually-hidden" for="role-${mem.userId}">Role of ${mem.email}</label>
<select id="role-${mem.userId}" name="role">${ROLE_OPTIONS.map((r) => html`<option value="${r}"${r === mem.role ? html` selected` : null}>${r}</option>`)}</select>
<button type="submit" class="button--secondary">${tr('Change role')}</button></form></td>
<td>${mem.totpEnabled ? 'on' : 'off'}</td>
<td><form method="post" action="${base}/settings/team/${mem.userId}/remove" class="inline-form" data-confirm="Remove ${mem.email} from the team?">${csrfField(csrf)}<button type="submit" class="button--secondary">${tr('Remove')}</button></form></td></tr>`,
      )}</tbody></table></div>
${
  invitations.length > 0
    ? html`<div class="table-wrap" tabindex="0"><table><caption>${tr('Pending invitations')}</caption>
<thead><tr><th scope="col">Email</th><th scope="col">${tr('Role')}</th><th scope="col">${tr('Expires')}</th></tr></thead>
<tbody>${invitations.map((i) => html`<tr><td>${i.email}</td><td>${i.role}</td><td>${time(i.expiresAt)}</td></tr>`)}</tbody></table></div>`
    : null
}
<section aria-labelledby="invite"><h2 id="invite">${tr('Invite someone')}</h2>
<form method="post" action="${base}/settings/team/invite" class="toolbar">${csrfField(csrf)}
<div class="field"><label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required></div>
<div class="field"><label for="invite-role">${tr('Role')}</label><select id="invite-role" name="role">${ROLE_OPTIONS.map((r) => html`<option value="${r}"${r === 'viewer' ? html` selected` : null}>${r}</option>`)}</select></div>
<button type="submit">${tr('Send invitation')}</button></form></section>`,
    );
  });

  scope.post(`${base}/settings/team/invite`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'team.manage');
    if (!ctx) {
      return reply;
    }
    await deps.dashboard.team.invite(
      ctx.merchantId,
      formField(req.body, 'email'),
      formField(req.body, 'role'),
      ctx.actor,
    );
    return t.seeOther(reply, `${base}/settings/team?invited=1`);
  });

  scope.post<{ Params: { userId: string } }>(`${base}/settings/team/:userId/role`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'team.manage');
    if (!ctx) {
      return reply;
    }
    await deps.dashboard.team.changeRole(ctx.merchantId, req.params.userId, formField(req.body, 'role'), ctx.actor);
    return t.seeOther(reply, `${base}/settings/team`);
  });

  scope.post<{ Params: { userId: string } }>(`${base}/settings/team/:userId/remove`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'team.manage');
    if (!ctx) {
      return reply;
    }
    await deps.dashboard.team.remove(ctx.merchantId, req.params.userId, ctx.actor);
    return t.seeOther(reply, `${base}/settings/team`);
  });

  // ---- Audit log (owners) -------------------------------------------------------------------
  scope.get(`${base}/settings/audit`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'team.manage');
    if (!ctx) {
      return reply;
    }
    const before = String((req.query as { before?: string }).before ?? '');
    const match = /^(\d{1,15}):([A-Za-z0-9]{1,40})$/.exec(before);
    const entries = await deps.dashboard.audit.list(
      ctx.merchantId,
      match ? { at: Number(match[1]), id: match[2] ?? '' } : null,
    );
    const last = entries.at(-1);
    return t.sendShell(
      req,
      reply,
      ctx,
      'settings',
      tr('Audit log'),
      html`<h1>${tr('Audit log')}</h1>
<div class="table-wrap" tabindex="0"><table data-test="audit"><caption>${tr('Every dashboard action and every key, endpoint and team change, newest first')}</caption>
<thead><tr><th scope="col">${tr('When')}</th><th scope="col">${tr('Who')}</th><th scope="col">${tr('What')}</th><th scope="col">${tr('Object')}</th><th scope="col">${tr('From')}</th></tr></thead>
<tbody>${entries.map(
        (e) =>
          html`<tr><td>${time(e.at)}</td><td>${e.actor}</td><td>${e.action}</td><td>${e.objectType}${e.objectId ? html` <code>${e.objectId}</code>` : null}</td><td>${e.ip ?? ''}</td></tr>`,
      )}</tbody></table></div>
${entries.length === 50 && last ? html`<p><a href="${base}/settings/audit?before=${last.at}:${last.id}">${tr('Older entries')}</a></p>` : null}`,
    );
  });
}
