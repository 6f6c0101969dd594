import type { Mode } from '../../../domain/merchants/merchant.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import type { DashboardMessages } from '../i18n.ts';
import { formatTime, t as tr } from '../i18n.ts';

/** The five sections, named the same in every language (see i18n.ts). */
export const SECTIONS = [
  { key: 'home', label: 'Home', path: '' },
  { key: 'payments', label: 'Payments', path: '/payments' },
  { key: 'subscriptions', label: 'Subscriptions', path: '/subscriptions' },
  { key: 'developers', label: 'Developers', path: '/developers' },
  { key: 'settings', label: 'Settings', path: '/settings' },
] as const;
export type Section = (typeof SECTIONS)[number]['key'];

export type ShellContext = {
  m: DashboardMessages;
  nonce: string;
  assets: { css: string; js: string };
  csrfToken: string;
  mode: Mode;
  /** `/dashboard` or `/dashboard/test`: every link of the page starts with it. */
  base: string;
  /** The same page in the other mode, for the switch. */
  otherModeHref: string;
  userEmail: string;
  merchantName: string;
  merchantId: string;
  merchants: { id: string; name: string }[];
  role: string;
};

function documentHead(m: DashboardMessages, title: string, css: string, js: string, nonce: string): SafeHtml {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} · ${m.t('Cobro dashboard')}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${css}">
<script type="module" src="${js}" nonce="${nonce}"></script>
</head>`;
}

/** A page of the signed-in dashboard: test banner, left navigation (a menu on phones), content. */
export function shell(ctx: ShellContext, section: Section, title: string, body: SafeHtml): SafeHtml {
  const m = ctx.m;
  return html`<html lang="${m.htmlLang}">
${documentHead(m, title, ctx.assets.css, ctx.assets.js, ctx.nonce)}
<body class="dashboard">
<a class="skip-link" href="#main">${m.t('Skip to content')}</a>
${ctx.mode === 'test' ? html`<p class="test-banner" role="note" data-test="test-mode-banner">${m.t('Test mode: these are test data. No real money moves.')}</p>` : null}
<div class="dash">
<header class="dash-top">
<span class="dash-brand">${ctx.merchantName}</span>
<details class="dash-menu">
<summary>${tr('Menu')}</summary>
${nav(ctx, section)}
</details>
</header>
<aside class="dash-side">${nav(ctx, section)}</aside>
<main id="main" class="dash-main" tabindex="-1">
${body}
</main>
</div>
</body>
</html>`;
}

function nav(ctx: ShellContext, section: Section): SafeHtml {
  const m = ctx.m;
  return html`<nav aria-label="${tr('Dashboard')}">
<ul class="dash-nav">
${SECTIONS.map(
  (s) =>
    html`<li><a href="${ctx.base}${s.path}"${s.key === section ? html` aria-current="page"` : null}>${s.label}</a></li>`,
)}
</ul>
${
  ctx.merchants.length > 1
    ? html`<form method="post" action="/dashboard/merchant" class="dash-switch">${csrfField(ctx.csrfToken)}
<label for="merchant-${section}">${tr('Merchant')}</label>
<select id="merchant-${section}" name="merchant_id">${ctx.merchants.map((x) => html`<option value="${x.id}"${x.id === ctx.merchantId ? html` selected` : null}>${x.name}</option>`)}</select>
<button type="submit" class="button--secondary">${tr('Switch')}</button></form>`
    : null
}
<p class="dash-mode"><a href="${ctx.otherModeHref}" data-test="mode-switch">${ctx.mode === 'test' ? m.t('View live data') : m.t('View test data')}</a></p>
<div class="dash-user">
<p>${m.t('Signed in as')} <strong>${ctx.userEmail}</strong> (${ctx.role})</p>
<form method="post" action="/dashboard/logout">
<input type="hidden" name="csrf_token" value="${ctx.csrfToken}">
<button type="submit" class="link-button">${m.t('Sign out')}</button>
</form>
</div>
</nav>`;
}

/** A signed-out page (sign-in, invitation, reset): a narrow card, no navigation. */
export function publicPage(
  ctx: { m: DashboardMessages; nonce: string; assets: { css: string; js: string } },
  title: string,
  body: SafeHtml,
): SafeHtml {
  return html`<html lang="${ctx.m.htmlLang}">
${documentHead(ctx.m, title, ctx.assets.css, ctx.assets.js, ctx.nonce)}
<body class="dashboard">
<main id="main" class="page">
<p class="dash-brand">${ctx.m.t('Cobro dashboard')}</p>
${body}
</main>
</body>
</html>`;
}

/** Problems above a form, announced to screen readers. */
export function problems(list: readonly string[]): SafeHtml | null {
  if (list.length === 0) {
    return null;
  }
  return html`<div class="error-summary" role="alert" data-test="problems"><ul>${list.map((p) => html`<li>${p}</li>`)}</ul></div>`;
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="csrf_token" value="${token}">`;
}

/** A confirmation step (works without JavaScript): a heading, what happens, one button. */
export function confirmStep(input: {
  csrf: string;
  heading: string;
  explanation: string;
  action: string;
  button: string;
  cancelHref: string;
}): SafeHtml {
  return html`<h1>${input.heading}</h1>
<p>${input.explanation}</p>
<form method="post" action="${input.action}" class="toolbar">${csrfField(input.csrf)}
<button type="submit" data-test="confirm">${input.button}</button>
<a class="button button--secondary" href="${input.cancelHref}">${tr('Cancel')}</a>
</form>`;
}

/** A moment as every dashboard page shows it: a `<time>` in the reader's format, or a dash. */
export function time(ms: number | null): SafeHtml {
  return ms === null ? html`—` : html`<time datetime="${new Date(ms).toISOString()}">${formatTime(ms)}</time>`;
}
