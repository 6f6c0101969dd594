import type { CheckoutPreference } from '../../../domain/checkout-preferences/checkout-preference.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import type { PageContext } from '../../kit/payer-layout.ts';
import { layout, payableFactsOf, receiptOf, summary } from '../../kit/payer-layout.ts';
import { STRIPE_JS_URL } from '../../kit/security.ts';

/** Stripe.js: always from Stripe's own origin, never bundled or served by us (Stripe's rule). */

/**
 * The card step of a checkout whose cards go through the merchant's Stripe account:
 * - `pay`: the Payment Element's mount point and what Stripe.js needs, as data attributes of
 *   the form (the publishable key, the intent's client secret, the return URL, the locale and
 *   the appearance); the intent's id too, for anyone checking which payment this page pays.
 * - `processing`: Stripe is still working on it; the page reloads itself (no script needed).
 * - `unavailable`: Stripe could not be reached; nothing was charged; a link tries again.
 * - `problem`: Stripe says it was paid, but not this amount: the payer is told to ask the merchant.
 */
export type HostedCardModel = {
  pref: CheckoutPreference;
  amountText: string;
  state: 'pay' | 'processing' | 'unavailable' | 'problem';
  stripe: {
    publishableKey: string;
    clientSecret: string;
    intentId: string;
    returnUrl: string;
    locale: string;
    appearance: string;
  } | null;
  /** Why the last try failed (or that the bank asks the payer to confirm), in the payer's language. */
  notice: string | null;
  /** This page again: the retry without script. */
  retryUrl: string;
  /** Back to the method choice (absent when the merchant fixed the method). */
  chooseAnotherUrl: string | null;
  /** Our script that mounts the Payment Element. */
  scriptPath: string;
};

export function renderHostedCard(ctx: PageContext, model: HostedCardModel): SafeHtml {
  const m = ctx.messages;
  const h = m.hostedCard;
  const chooseAnother = model.chooseAnotherUrl
    ? html`<a class="button button--secondary" href="${model.chooseAnotherUrl}" data-test="choose-another">${m.chooseAnother}</a>`
    : null;
  const head = summary(receiptOf(model.pref, model.amountText), m, { payable: payableFactsOf(model.pref) });
  if (model.state !== 'pay' || !model.stripe) {
    const [title, text] =
      model.state === 'processing'
        ? [h.processingTitle, h.processingText]
        : [m.cardDetails, model.state === 'problem' ? h.problem : h.unavailable];
    const body = html`${head}
<section class="card" aria-labelledby="card-step-title" data-test="stripe-card-${model.state}">
<h2 id="card-step-title">${title}</h2>
<p role="status" data-test="stripe-card-message">${text}</p>
<div class="actions">
${model.state === 'problem' ? null : html`<a class="button" href="${model.retryUrl}" data-test="retry">${model.state === 'processing' ? m.checkStatus : h.retry}</a>`}
${chooseAnother}
</div>
</section>`;
    return layout(ctx, `${title} · ${model.pref.title}`, body);
  }
  const s = model.stripe;
  const body = html`${head}
<section class="card" aria-labelledby="card-step-title" data-test="stripe-card-step">
<h2 id="card-step-title">${m.cardDetails}</h2>
<p class="hint">${h.intro}</p>
<form id="stripe-payment-form" data-test="stripe-payment-form" novalidate data-stripe-publishable-key="${s.publishableKey}" data-stripe-client-secret="${s.clientSecret}" data-stripe-intent="${s.intentId}" data-stripe-return-url="${s.returnUrl}" data-stripe-locale="${s.locale}" data-stripe-appearance="${s.appearance}" data-unavailable="${h.unavailable}">
<p class="field-error" id="stripe-card-error" role="alert" data-test="stripe-card-error"${model.notice ? null : html` hidden`}>${model.notice ?? ''}</p>
<div id="payment-element" data-test="payment-element"></div>
<noscript><p class="notice" data-test="card-needs-javascript">${h.needsJavaScript}</p></noscript>
<button type="submit" class="pay" data-test="pay-button" hidden>${m.labels.pay}</button>
</form>
${chooseAnother ? html`<div class="actions">${chooseAnother}</div>` : null}
</section>
<script src="${STRIPE_JS_URL}" nonce="${ctx.nonce}"></script>
<script src="${model.scriptPath}" nonce="${ctx.nonce}"></script>`;
  return layout(ctx, `${m.cardDetails} · ${model.pref.title}`, body);
}
