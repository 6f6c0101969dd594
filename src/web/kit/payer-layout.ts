import type { CheckoutPreference, Payer } from '../../domain/checkout-preferences/checkout-preference.ts';
import type { Locale } from '../../domain/shared/language.ts';
import { LOCALES } from '../../domain/shared/language.ts';
import type { Payee } from './brand.ts';
import type { SafeHtml } from './html.ts';
import { html } from './html.ts';
import type { LanguageSwitcher } from './language-switch.ts';
import { LANGUAGE_NAMES } from './language-switch.ts';
import type { Messages } from './payer-messages.ts';
import { formatDateTime } from './payer-messages.ts';

/** What every page needs besides its own content. */
export type PageContext = {
  messages: Messages;
  /** This response's script nonce (also in its Content-Security-Policy header). */
  nonce: string;
  assets: { css: string; js: string };
  /** Test-mode preferences show a banner on every page. */
  testMode: boolean;
  /** Whom the payer pays (the merchant's business profile); absent on pages of no checkout. */
  payee?: Payee | null;
  /** The links to read this page in another language (every payer page has them). */
  switcher: LanguageSwitcher;
  /** What the page belongs to, after its title in the browser's tab ("Checkout" by default). */
  siteName?: string;
  /** A page that looks again by itself, without script (a payment the processor is still working on). */
  refresh?: { seconds: number; url: string };
};

/** The document around a page: language, viewport, our stylesheet and script (nonce'd), the test banner. */
export function layout(ctx: PageContext, title: string, body: SafeHtml): SafeHtml {
  const m = ctx.messages;
  const payee = ctx.payee ?? null;
  return html`<html lang="${m.htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
${ctx.refresh ? html`<meta http-equiv="refresh" content="${`${ctx.refresh.seconds}; url=${ctx.refresh.url}`}">` : null}
<title>${title} · ${payee ? payee.name : (ctx.siteName ?? m.checkout)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ctx.assets.css}">
${payee?.accentCss ? html`<link rel="stylesheet" href="${payee.accentCss}">` : null}
<script type="module" src="${ctx.assets.js}" nonce="${ctx.nonce}"></script>
</head>
<body>
${ctx.testMode ? html`<p class="test-banner" role="note" data-test="test-mode-banner">${m.testModeBanner}</p>` : null}
${languageNav(ctx.switcher, m)}
<main id="main" class="page">
${payee ? payeeHeader(payee, m) : null}
${body}
</main>
<footer>${payee?.supportEmail ? html`<p data-test="payee-support">${m.payeeSupport} <a href="mailto:${payee.supportEmail}">${payee.supportEmail}</a></p>` : null}${m.footer}</footer>
</body>
</html>`;
}

/**
 * The language switcher: plain links (no script needed), each language named in itself and
 * marked with its own language so a screen reader says "Português" as a Portuguese word.
 */
function languageNav(switcher: LanguageSwitcher, m: Messages): SafeHtml {
  const item = (locale: Locale) =>
    html`<li><a href="${switcher.links[locale]}" hreflang="${locale}" lang="${locale}" data-test="language-${locale}"${switcher.current === locale ? html` aria-current="true"` : null}>${LANGUAGE_NAMES[locale]}</a></li>`;
  return html`<nav class="languages" aria-label="${m.languageSwitcher}" data-test="language-switcher">
<ul>${LOCALES.map(item)}</ul>
</nav>`;
}

/**
 * Whom the payer is paying, above everything else: the logo (decorative: the name is beside
 * it), and the display name, which is text the merchant chose and so is escaped like any.
 */
function payeeHeader(payee: Payee, m: Messages): SafeHtml {
  return html`<header class="payee" data-test="payee">
${payee.logo ? html`<img class="payee-logo" src="${payee.logo.src}" width="${payee.logo.width}" height="${payee.logo.height}" alt="" data-test="payee-logo">` : null}
<p class="payee-name"><span class="hint">${m.payeeLabel}</span> <strong data-test="payee-name">${payee.name}</strong></p>
</header>`;
}

/**
 * What any checkout page may say about the purchase: what the merchant's own receipt would show.
 * Pages of a checkout that can no longer be paid (paid, expired, a finished order, an error) get
 * this and nothing else, so no edit of theirs can show the payer: their URL outlives the payment
 * in browser history, e-mails and screenshots.
 */
export type Receipt = {
  title: string;
  amountText: string;
  /** The merchant's own reference (`external_id`). */
  externalId: string | null;
};

/** Picks the receipt members of a preference; the payer and everything else stay behind. */
export function receiptOf(pref: Pick<CheckoutPreference, 'title' | 'externalId'>, amountText: string): Receipt {
  return { title: pref.title, amountText, externalId: pref.externalId };
}

/** What only a page that can still take the payment adds: the deadline, and who pays so the payer can check it. */
export type PayableFacts = {
  /** Null once the checkout itself is over (a renewal order of a paid subscription checkout). */
  payBefore: number | null;
  payer: Payer;
};

export function payableFactsOf(pref: Pick<CheckoutPreference, 'status' | 'expiresAt' | 'payer'>): PayableFacts {
  return { payBefore: pref.status === 'OPEN' ? pref.expiresAt : null, payer: pref.payer };
}

/** The payer's view of what they are paying: title, amount, the merchant's reference; the deadline and who pays while payable. */
export function summary(
  receipt: Receipt,
  messages: Messages,
  options: { headingLevel?: 1 | 2; payable?: PayableFacts } = {},
): SafeHtml {
  const m = messages;
  const payable = options.payable ?? null;
  const payer = payable?.payer ?? null;
  const name = payer ? [payer.firstName, payer.lastName].filter((p): p is string => p !== null).join(' ') : '';
  const who = payer ? [name, payer.email, payer.phoneNumber].filter((p): p is string => p !== null && p !== '') : [];
  const heading =
    (options.headingLevel ?? 1) === 1
      ? html`<h1 id="summary-title" data-test="title">${receipt.title}</h1>`
      : html`<h2 id="summary-title" data-test="title">${receipt.title}</h2>`;
  return html`<section class="card" aria-labelledby="summary-title" data-test="summary">
${heading}
<p class="amount" data-test="amount"><span class="hint">${m.total}</span> ${receipt.amountText}</p>
<dl class="facts">
${receipt.externalId ? html`<dt>${m.reference}</dt><dd data-test="external-id">${receipt.externalId}</dd>` : null}
${payable && payable.payBefore !== null ? html`<dt>${m.payBefore}</dt><dd>${formatDateTime(payable.payBefore, m)}</dd>` : null}
${who.length > 0 ? html`<dt>${m.payingAs}</dt><dd data-test="payer">${who.join(' · ')}</dd>` : null}
</dl>
</section>`;
}
