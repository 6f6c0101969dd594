import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import type { DashboardMessages } from '../i18n.ts';
import { t as tr } from '../i18n.ts';
import { csrfField, problems } from './layout.ts';

export function signInForm(
  m: DashboardMessages,
  csrf: string,
  email: string,
  errors: readonly string[],
  notice: string | null,
): SafeHtml {
  return html`<section class="card" aria-labelledby="signin-title">
<h1 id="signin-title">${m.t('Sign in to your dashboard')}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
${problems(errors)}
<form method="post" action="/dashboard/login" novalidate>
${csrfField(csrf)}
<div class="field"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}"></div>
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit" class="pay-button">Sign in</button>
</form>
<p><a href="/dashboard/forgot">${m.t('Forgot your password?')}</a></p>
</section>`;
}

export function secondFactorForm(m: DashboardMessages, csrf: string, errors: readonly string[]): SafeHtml {
  return html`<section class="card" aria-labelledby="tfa-title">
<h1 id="tfa-title">${m.t('Two-factor authentication')}</h1>
<p id="code-help">${m.t('Enter the 6-digit code from your authenticator app, or one of your recovery codes.')}</p>
${problems(errors)}
<form method="post" action="/dashboard/login/code" novalidate>
${csrfField(csrf)}
<div class="field"><label for="code">${m.t('Code')}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" aria-describedby="code-help" required maxlength="20"></div>
<button type="submit" class="pay-button">${m.t('Verify')}</button>
</form>
</section>`;
}

export function invitationForm(
  m: DashboardMessages,
  csrf: string,
  action: string,
  invitation: { merchantName: string; role: string; email: string; accountExists: boolean },
  errors: readonly string[],
): SafeHtml {
  return html`<section class="card" aria-labelledby="invite-title">
<h1 id="invite-title">${m.t('Join the dashboard')}</h1>
<p>${m.t('You are invited to {merchant} as {role}.', { merchant: invitation.merchantName, role: invitation.role })}</p>
<p>${tr('Email:')} <strong data-test="invited-email">${invitation.email}</strong></p>
${problems(errors)}
<form method="post" action="${action}" novalidate>
${csrfField(csrf)}
${
  invitation.accountExists
    ? html`<p>${m.t('You already have an account with this e-mail: enter its password to accept.')}</p>
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required></div>
<input type="hidden" name="confirm" value="">
<button type="submit" class="pay-button">${tr('Accept invitation')}</button>`
    : html`<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" aria-describedby="password-rules"></div>
<p id="password-rules" class="hint">${m.t('At least 12 characters; not a common password.')}</p>
<div class="field"><label for="confirm">Confirm password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="12"></div>
<button type="submit" class="pay-button">Create account</button>`
}
</form>
</section>`;
}

export function forgotForm(m: DashboardMessages, csrf: string, sent: boolean): SafeHtml {
  return html`<section class="card" aria-labelledby="forgot-title">
<h1 id="forgot-title">${m.t('Reset your password')}</h1>
${sent ? html`<p class="notice" role="status" data-test="reset-sent">${m.t('If an account uses this e-mail, a link to reset its password is on its way.')}</p>` : null}
<form method="post" action="/dashboard/forgot" novalidate>
${csrfField(csrf)}
<div class="field"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required></div>
<button type="submit" class="pay-button">${m.t('Send the link')}</button>
</form>
<p><a href="/dashboard/login">Sign in</a></p>
</section>`;
}

export function resetForm(m: DashboardMessages, csrf: string, action: string, errors: readonly string[]): SafeHtml {
  return html`<section class="card" aria-labelledby="reset-title">
<h1 id="reset-title">${m.t('Choose a new password')}</h1>
${problems(errors)}
<form method="post" action="${action}" novalidate>
${csrfField(csrf)}
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" aria-describedby="password-rules"></div>
<p id="password-rules" class="hint">${m.t('At least 12 characters; not a common password.')}</p>
<div class="field"><label for="confirm">Confirm password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="12"></div>
<button type="submit" class="pay-button">${m.t('Save password')}</button>
</form>
</section>`;
}

export function messagePage(title: string, text: string, link: { href: string; label: string } | null): SafeHtml {
  return html`<section class="card" aria-labelledby="msg-title">
<h1 id="msg-title">${title}</h1>
<p data-test="message">${text}</p>
${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : null}
</section>`;
}
