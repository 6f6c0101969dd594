import type { CheckoutPreference } from '../../../domain/checkout-preferences/checkout-preference.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import type { Messages } from '../i18n.ts';
import { formatDateTime } from '../i18n.ts';

/** What every page needs besides its own content. */
export type PageContext = {
  messages: Messages;
  /** This response's script nonce (also in its Content-Security-Policy header). */
  nonce: string;
  assets: { css: string; js: string };
  /** Test-mode preferences show a banner on every page. */
  testMode: boolean;
};

/** The document around a page: language, viewport, our stylesheet and script (nonce'd), the test banner. */
export function layout(ctx: PageContext, title: string, body: SafeHtml): SafeHtml {
  const m = ctx.messages;
  return html`<html lang="${m.htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} · ${m.checkout}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ctx.assets.css}">
<script type="module" src="${ctx.assets.js}" nonce="${ctx.nonce}"></script>
</head>
<body>
${ctx.testMode ? html`<p class="test-banner" role="note" data-test="test-mode-banner">${m.testModeBanner}</p>` : null}
<main id="main" class="page">
${body}
</main>
<footer>${m.footer}</footer>
</body>
</html>`;
}

/** The payer's view of what they are paying: title, amount, the merchant's reference, the deadline, who pays. */
export function summary(
  pref: CheckoutPreference,
  amountText: string,
  messages: Messages,
  options: { headingLevel: 1 | 2 } = { headingLevel: 1 },
): SafeHtml {
  const m = messages;
  const payer = pref.payer;
  const name = [payer.firstName, payer.lastName].filter((p): p is string => p !== null).join(' ');
  const who = [name, payer.email, payer.phoneNumber].filter((p): p is string => p !== null && p !== '');
  const heading =
    options.headingLevel === 1
      ? html`<h1 id="summary-title" data-test="title">${pref.title}</h1>`
      : html`<h2 id="summary-title" data-test="title">${pref.title}</h2>`;
  return html`<section class="card" aria-labelledby="summary-title" data-test="summary">
${heading}
<p class="amount" data-test="amount"><span class="hint">${m.total}</span> ${amountText}</p>
<dl class="facts">
${pref.externalId ? html`<dt>${m.reference}</dt><dd data-test="external-id">${pref.externalId}</dd>` : null}
${pref.status === 'OPEN' ? html`<dt>${m.payBefore}</dt><dd>${formatDateTime(pref.expiresAt, m)}</dd>` : null}
${who.length > 0 ? html`<dt>${m.payingAs}</dt><dd data-test="payer">${who.join(' · ')}</dd>` : null}
</dl>
</section>`;
}
