import type { Locale } from '../../domain/shared/language.ts';
import type { SafeHtml } from '../kit/html.ts';
import { html, trustedMarkup } from '../kit/html.ts';
import { layout } from '../kit/payer-layout.ts';
import { STRIPE_JS_URL } from '../kit/security.ts';
import type { SubscriptionPageContext } from '../subscriptions/views.ts';
import type { CardRenewalMessages } from './messages.ts';

export type RenewalPageContext = SubscriptionPageContext & { r: CardRenewalMessages };

export type RenewalResult = {
  title: string;
  /** What the renewal charges, written as the payer writes money. */
  amount: string;
  /** This renewal's confirmation page (relative, signed). */
  confirmUrl: string;
  /** The subscriber's own page (relative, signed). */
  subscriptionUrl: string;
  kind: 'paid' | 'processing' | 'failed' | 'closed';
};

export type ConfirmModel = RenewalResult & {
  publishableKey: string;
  clientSecret: string;
  paymentMethodId: string | null;
  /** The intent waits for the payer's bank (requires_action) rather than a new confirmation. */
  nextAction: boolean;
  returnUrl: string;
  locale: Locale;
};

/**
 * The script of the confirmation page: Stripe.js hands the payer to their bank (the intent's
 * next action, or a new confirmation with the saved card after an authentication_required
 * decline), then the browser goes to the return page, which asks Stripe itself.
 */
const CONFIRM_SCRIPT = `
const box = document.getElementById('renewal');
const button = document.getElementById('renewal-confirm');
const status = document.getElementById('renewal-status');
const d = box.dataset;
button.hidden = false;
button.addEventListener('click', async () => {
  button.disabled = true;
  status.textContent = d.working;
  const stripe = window.Stripe(d.key, { locale: d.locale });
  const result = d.nextAction === 'true'
    ? await stripe.handleNextAction({ clientSecret: d.secret })
    : await stripe.confirmCardPayment(d.secret, d.paymentMethod ? { payment_method: d.paymentMethod } : {});
  const intent = result && result.paymentIntent ? '&payment_intent=' + encodeURIComponent(result.paymentIntent.id) : '';
  window.location.assign(d.returnUrl + intent);
});
`;

export function renderConfirmPage(ctx: RenewalPageContext, m: ConfirmModel): SafeHtml {
  const { r } = ctx;
  const body = html`<section class="card" aria-labelledby="renewal-title" data-test="renewal-confirm">
<h1 id="renewal-title">${r.title}</h1>
<p>${r.explain(m.title, m.amount)}</p>
<div id="renewal" data-key="${m.publishableKey}" data-secret="${m.clientSecret}" data-payment-method="${m.paymentMethodId ?? ''}" data-next-action="${m.nextAction ? 'true' : 'false'}" data-return-url="${m.returnUrl}" data-locale="${m.locale}" data-working="${r.working}">
<p id="renewal-status" role="status" aria-live="polite"></p>
<noscript><p>${r.noScript}</p></noscript>
<button id="renewal-confirm" class="button" type="button" hidden data-test="renewal-confirm-button">${r.confirm}</button>
</div>
<p><a href="${m.subscriptionUrl}" data-test="subscription-link">${r.manage}</a></p>
</section>
<script src="${STRIPE_JS_URL}" nonce="${ctx.nonce}"></script>
<script nonce="${ctx.nonce}">${trustedMarkup(CONFIRM_SCRIPT)}</script>`;
  return layout(ctx, r.title, body);
}

export function renderResultPage(ctx: RenewalPageContext, m: RenewalResult): SafeHtml {
  const { r } = ctx;
  const [title, text] =
    m.kind === 'paid'
      ? [r.paidTitle, r.paid(m.title, m.amount)]
      : m.kind === 'processing'
        ? [r.processingTitle, r.processing]
        : m.kind === 'failed'
          ? [r.failedTitle, r.failed]
          : [r.closedTitle, r.closed];
  const body = html`<section class="card" aria-labelledby="renewal-title" data-test="renewal-${m.kind}">
<h1 id="renewal-title">${title}</h1>
<p>${text}</p>
${m.kind === 'failed' ? html`<p><a class="button" href="${m.confirmUrl}" data-test="renewal-try-again">${r.tryAgain}</a></p>` : null}
<p><a href="${m.subscriptionUrl}" data-test="subscription-link">${r.manage}</a></p>
</section>`;
  return layout(ctx, title, body);
}
