import type { CheckoutPreference } from '../../../domain/checkout-preferences/checkout-preference.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import type { PageContext, Receipt } from '../../kit/payer-layout.ts';
import { layout, payableFactsOf, receiptOf, summary } from '../../kit/payer-layout.ts';
import { CSRF_FIELD } from '../../kit/security.ts';

/** An order that can still be paid: the only order page that shows who pays. */
export type OrderPageModel = {
  pref: CheckoutPreference;
  amountText: string;
  methodType: string;
  methodLabel: string;
  panel: SafeHtml;
  orderUrl: string;
  statusUrl: string;
  /** Test mode only: the form of the "Simulate payment received" button. */
  simulate: { action: string; csrfToken: string } | null;
  /** Back to the method choice (absent when the merchant fixed the method). */
  chooseAnotherUrl: string | null;
};

/**
 * An open order: the method's panel, a status line the script keeps current, and a plain
 * link that re-checks the status without JavaScript (the order page redirects once closed).
 */
export function renderOrderPage(ctx: PageContext, model: OrderPageModel): SafeHtml {
  const m = ctx.messages;
  const body = html`${summary(receiptOf(model.pref, model.amountText), m, { payable: payableFactsOf(model.pref) })}
<section class="card" aria-labelledby="panel-title" data-test="panel" data-method-type="${model.methodType}">
<h2 id="panel-title">${m.payWith(model.methodLabel)}</h2>
${model.panel}
</section>
<section class="card" data-test="status-box" data-status-url="${model.statusUrl}" data-order-url="${model.orderUrl}">
<p class="status" role="status" data-test="payment-status">${m.waiting}</p>
<noscript><p>${m.waitingNoScript}</p></noscript>
<div class="actions">
<a class="button" href="${model.orderUrl}" data-test="check-status">${m.checkStatus}</a>
${
  model.simulate
    ? html`<form method="post" action="${model.simulate.action}" data-test="simulate-form">
<input type="hidden" name="${CSRF_FIELD}" value="${model.simulate.csrfToken}">
<button type="submit" class="button--test pay" data-test="simulate" aria-describedby="simulate-hint">${m.simulate}</button>
<span class="hint" id="simulate-hint">${m.simulateHint}</span>
</form>`
    : null
}
${model.chooseAnotherUrl ? html`<a class="button button--secondary" href="${model.chooseAnotherUrl}" data-test="choose-another">${m.chooseAnother}</a>` : null}
</div>
</section>`;
  return layout(ctx, model.pref.title, body);
}

export type ResultKind = 'paid' | 'failed' | 'expired' | 'refunded';

/**
 * A finished order. Its URL outlives the payment (history, e-mails, screenshots), so the page gets
 * the receipt only: no payer, no card, no payment instructions.
 */
export type ResultModel = {
  receipt: Receipt;
  kind: ResultKind;
  /** Why it failed, in the payer's language, from a closed list (never the processor's text). */
  detail: string | null;
  /** Back to the checkout when it can still be paid. */
  tryAgainUrl: string | null;
};

/** Where the payer lands when the merchant gave no success or error URL. */
export function renderResult(ctx: PageContext, model: ResultModel): SafeHtml {
  const m = ctx.messages;
  const title = {
    paid: m.resultPaidTitle,
    failed: m.resultFailedTitle,
    expired: m.resultExpiredTitle,
    refunded: m.resultRefundedTitle,
  }[model.kind];
  const text = {
    paid: m.resultPaidText,
    failed: m.failureGeneric,
    expired: m.resultExpiredText,
    refunded: null,
  }[model.kind];
  const body = html`<section class="card ${model.kind === 'paid' ? 'result-ok' : 'result-fail'}" aria-labelledby="result-title" data-test="result-${model.kind}">
<h1 id="result-title">${title}</h1>
${model.detail ? html`<p data-test="result-detail">${model.detail}</p>` : null}
${text && text !== model.detail ? html`<p>${text}</p>` : null}
${model.tryAgainUrl ? html`<p><a class="button" href="${model.tryAgainUrl}" data-test="try-again">${m.tryAgain}</a></p>` : html`<p class="hint">${m.closeHint}</p>`}
</section>
${summary(model.receipt, m, { headingLevel: 2 })}`;
  return layout(ctx, title, body);
}

export type StateKind = 'expired' | 'paid' | 'notFound' | 'csrf' | 'error' | 'badRequest' | 'noMethods';

/**
 * Pages for a checkout that cannot be paid (expired, paid, unknown) and for refused or failed
 * requests: at most the receipt of the checkout, never its payer.
 */
export function renderState(
  ctx: PageContext,
  kind: StateKind,
  receipt: Receipt | null,
  backUrl: string | null = null,
): SafeHtml {
  const m = ctx.messages;
  const texts: Record<StateKind, readonly [string, string]> = {
    expired: [m.expiredTitle, m.expiredText],
    paid: [m.paidTitle, m.paidText],
    notFound: [m.notFoundTitle, m.notFoundText],
    csrf: [m.csrfTitle, m.csrfText],
    error: [m.errorTitle, m.errorText],
    badRequest: [m.badRequestTitle, m.badRequestText],
    noMethods: [m.checkout, m.noMethods],
  };
  const [title, text] = texts[kind];
  const body = html`<section class="card" aria-labelledby="state-title" data-test="checkout-${kind}">
<h1 id="state-title">${title}</h1>
<p>${text}</p>
${backUrl ? html`<p><a class="button" href="${backUrl}" data-test="back">${m.backToCheckout}</a></p>` : null}
</section>
${receipt ? summary(receipt, m, { headingLevel: 2 }) : null}`;
  return layout(ctx, title, body);
}
