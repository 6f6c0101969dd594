import { ACCESS_DENIED } from '../../../domain/dashboard/access-refusals.service.ts';
import type { ActiveSession } from '../../../domain/dashboard/dashboard-auth.service.ts';
import type { AuditEntry, DashboardSession, Invitation, MemberView } from '../../../domain/dashboard/dashboard-user.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html, trustedMarkup } from '../../kit/html.ts';
import type { DashboardMessages } from '../i18n.ts';
import { t as tr } from '../i18n.ts';
import { csrfField, problems, time } from './layout.ts';

const ROLE_OPTIONS = ['owner', 'admin', 'developer', 'viewer'] as const;

// ---- Security: two-factor and sessions ------------------------------------------------------

export type SecurityPageModel = {
  base: string;
  csrf: string;
  m: DashboardMessages;
  active: ActiveSession;
  /** A two-factor enrolment begun and not confirmed yet, with its QR code's markup. */
  pending: { secret: string; qr: string } | null;
  sessions: DashboardSession[];
  /** The recovery codes, right after two-factor is turned on (shown only then). */
  codes?: string[];
  errors?: string[];
};

function twoFactorSection({ base, csrf, active, pending, codes, errors }: SecurityPageModel): SafeHtml {
  const user = active.user;
  if (codes !== undefined) {
    return html`<p class="notice" role="status">${tr('Two-factor authentication is on. Keep these recovery codes somewhere safe: each works once, and they are shown only now.')}</p>
<p data-test="others-signed-out">${tr('Every other session of your account is signed out: sign in there again, with a code.')}</p>
<ul class="codes" data-test="recovery-codes">${codes.map((c) => html`<li>${c}</li>`)}</ul>`;
  }
  if (user.totpEnabledAt !== null) {
    return html`<p data-test="2fa-state">Two-factor authentication is on since ${time(user.totpEnabledAt)}. Recovery codes left: ${user.recoveryCodes.length}.</p>
${problems(errors ?? [])}
<form method="post" action="${base}/settings/security/2fa/disable">${csrfField(csrf)}
<div class="field"><label for="disable-password">Password</label><input id="disable-password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit" class="button--secondary">${tr('Turn off two-factor authentication')}</button></form>`;
  }
  if (pending) {
    return html`<p>${tr('Scan this code with an authenticator app (or type the key), then enter the 6-digit code it shows.')}</p>
<div class="qr">${trustedMarkup(pending.qr)}</div>
<p>${tr('Key:')} <code class="mono" data-test="totp-secret">${pending.secret}</code></p>
${problems(errors ?? [])}
<form method="post" action="${base}/settings/security/2fa/confirm">${csrfField(csrf)}
<div class="field"><label for="code">${tr('Code')}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="6"></div>
<div class="field"><label for="enable-password">Password</label><input id="enable-password" name="password" type="password" autocomplete="current-password" required aria-describedby="enable-password-why"></div>
<p id="enable-password-why" class="hint">${tr('Your password is asked again, so that a session alone cannot change how you sign in.')}</p>
<button type="submit">${tr('Turn on two-factor authentication')}</button></form>`;
  }
  return html`<p data-test="2fa-state">${tr('Two-factor authentication is off.')}</p>
<form method="post" action="${base}/settings/security/2fa/start">${csrfField(csrf)}<button type="submit">${tr('Set up two-factor authentication')}</button></form>`;
}

export function securityPage(model: SecurityPageModel): SafeHtml {
  const { base, csrf, active, sessions } = model;
  return html`<h1>${tr('Security')}</h1>
<section aria-labelledby="tfa"><h2 id="tfa">${tr('Two-factor authentication')}</h2>${twoFactorSection(model)}</section>
<section aria-labelledby="sessions"><h2 id="sessions">${tr('Active sessions')}</h2>
<div class="table-wrap" tabindex="0"><table><caption>${tr('Where you are signed in')}</caption>
<thead><tr><th scope="col">${tr('Signed in')}</th><th scope="col">${tr('Last seen')}</th><th scope="col">${tr('Address')}</th><th scope="col">${tr('Browser')}</th></tr></thead>
<tbody>${sessions.map(
    (s) =>
      html`<tr><td>${time(s.createdAt)}${s.idHash === active.session.idHash ? html` <span class="badge">${tr('this one')}</span>` : null}</td><td>${time(s.lastSeenAt)}</td><td>${s.ip}</td><td>${s.userAgent.slice(0, 80)}</td></tr>`,
  )}</tbody></table></div>
<form method="post" action="${base}/settings/security/sessions/end-others">${csrfField(csrf)}<button type="submit" class="button--secondary">${model.m.t('Sign out everywhere')}</button></form>
</section>`;
}

// ---- Team -------------------------------------------------------------------------------------

export type TeamPageModel = {
  base: string;
  csrf: string;
  members: MemberView[];
  invitations: Invitation[];
  /** An invitation was just sent. */
  invited: boolean;
};

export function teamPage({ base, csrf, members, invitations, invited }: TeamPageModel): SafeHtml {
  return html`<h1>${tr('Team')}</h1>
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
<button type="submit">${tr('Send invitation')}</button></form></section>`;
}

// ---- Audit log --------------------------------------------------------------------------------

/**
 * What a refused attempt tried: a label, the reason and permission, the request, and how many
 * refusals just before it were counted without an entry of their own.
 */
function refusedDetail(d: AuditEntry['detail']): SafeHtml {
  const suppressed = typeof d.suppressed === 'number' ? d.suppressed : 0;
  return html` <span class="badge">${tr('Refused')}</span> <span>${String(d.reason ?? '')}: ${String(d.attempted ?? '')}</span>
<br><code>${String(d.method ?? '')} ${String(d.path ?? '')}</code>${suppressed > 0 ? html`<br><small>${tr('{count} similar refusals before this one were counted, not written.', { count: suppressed })}</small>` : null}`;
}

/** One page of the audit log, newest first; `olderHref` links the next page when there is one. */
export function auditLogPage(entries: readonly AuditEntry[], olderHref: string | null): SafeHtml {
  return html`<h1>${tr('Audit log')}</h1>
<div class="table-wrap" tabindex="0"><table data-test="audit"><caption>${tr('Every dashboard action, every refused attempt and every key, endpoint and team change, newest first')}</caption>
<thead><tr><th scope="col">${tr('When')}</th><th scope="col">${tr('Who')}</th><th scope="col">${tr('What')}</th><th scope="col">${tr('Object')}</th><th scope="col">${tr('From')}</th></tr></thead>
<tbody>${entries.map(
    (e) =>
      html`<tr${e.action === ACCESS_DENIED ? html` data-test="refused"` : null}><td>${time(e.at)}</td><td>${e.actor}</td><td>${e.action}${e.action === ACCESS_DENIED ? refusedDetail(e.detail) : null}</td><td>${e.objectType}${e.objectId ? html` <code>${e.objectId}</code>` : null}</td><td>${e.ip ?? ''}</td></tr>`,
  )}</tbody></table></div>
${olderHref ? html`<p><a href="${olderHref}">${tr('Older entries')}</a></p>` : null}`;
}
