import type { RecurrentPaymentStatus } from '../../domain/subscriptions/recurrent-payment.status.ts';
import type { SafeHtml } from '../kit/html.ts';
import { html } from '../kit/html.ts';
import { FIELD_LABELS } from '../kit/payer-messages.ts';
import { CSRF_FIELD } from '../kit/security.ts';

/** What every payer page needs besides its content (the checkout's assets, this response's nonce). */
export type SubscriptionPageContext = {
  nonce: string;
  assets: { css: string; js: string };
  testMode: boolean;
};

/** The form fields of the card change, named as posted and as element ids (the checkout's names). */
export type CardFormField = 'card_number' | 'card_expiry' | 'card_cvc' | 'card_holder_name';

export type CardForm = {
  action: string;
  csrfToken: string;
  signature: string;
  /** Problems beside their field; `general` above the form. */
  errors: Partial<Record<CardFormField, string>>;
  general: readonly string[];
};

/**
 * What the page shows in every status: the plan and how it stands, as the merchant's own records
 * would show it. Nothing here names the subscriber or their card.
 */
export type SubscriptionModel = {
  title: string;
  status: RecurrentPaymentStatus;
  statusText: string;
  /** "9.99 USD every month". */
  priceText: string;
  /** "12 monthly payments", "Until you cancel". */
  durationText: string;
  trialText: string | null;
  signupFeeText: string | null;
  periodsText: string;
  /** The merchant's own reference (`external_id`). */
  reference: string | null;
  /** The method by name only ("Card", "PIX"); the card itself is in `manage`. */
  methodName: string;
  /** A notice after an action (card saved, canceled), shown once. */
  notice: string | null;
  /**
   * Only while the subscription can still be used (not CANCELED, COMPLETE, REJECTED or EXPIRED):
   * the subscriber, their card, what comes next and what they can do. Null once it is over, so an
   * ended subscription's page, whose link lives on in old e-mails, has no personal data to show.
   */
  manage: ManageModel | null;
};

/** The part of the page that exists only while the subscription is in use. */
export type ManageModel = {
  /** Label and date of the next thing that happens (payment, retry, end), or null. */
  next: { label: string; date: string } | null;
  currentPeriod: string | null;
  /** The saved card ("Visa ending in 4242"), shown instead of the method name; null for other methods. */
  cardText: string | null;
  payerText: string | null;
  /** A push renewal the payer can pay now: its payment page. */
  payNowUrl: string | null;
  cardForm: CardForm | null;
  /** The confirmation step of cancelling (every subscription still in use can be canceled). */
  cancelUrl: string;
};

/** The document around a payer page: our own stylesheet and script (nonce'd), the test banner. */
function layout(ctx: SubscriptionPageContext, title: string, body: SafeHtml): SafeHtml {
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} · Your subscription</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ctx.assets.css}">
<script type="module" src="${ctx.assets.js}" nonce="${ctx.nonce}"></script>
</head>
<body>
${ctx.testMode ? html`<p class="test-banner" role="note" data-test="test-mode-banner">Test mode: no real money moves. Use test cards, or the simulate button on the payment page.</p>` : null}
<main id="main" class="page">
${body}
</main>
<footer>Payments processed by Cobro</footer>
</body>
</html>`;
}

function cardInput(
  key: CardFormField,
  autocomplete: string,
  maxLength: number,
  errors: CardForm['errors'],
  extra: { placeholder?: string; short?: boolean } = {},
): SafeHtml {
  const error = errors[key];
  return html`<div class="field${error ? ' field--error' : ''}">
<label for="${key}">${FIELD_LABELS[key]}</label>
${error ? html`<span class="field-error" id="${key}-error" data-test="error-${key}">${error}</span>` : null}
<input id="${key}" name="${key}" type="text" autocomplete="${autocomplete}" value="" maxlength="${maxLength}" inputmode="${key === 'card_holder_name' ? 'text' : 'numeric'}"${extra.short ? html` class="short"` : null}${extra.placeholder ? html` placeholder="${extra.placeholder}"` : null} required aria-required="true"${error ? html` aria-invalid="true" aria-describedby="${key}-error"` : null} spellcheck="false">
</div>`;
}

/** The card change: always rendered empty (what the payer typed is never sent back). */
function cardFormView(form: CardForm): SafeHtml {
  const problems = [
    ...form.general,
    ...(['card_number', 'card_expiry', 'card_cvc', 'card_holder_name'] as const).flatMap((k) => {
      const text = form.errors[k];
      return text ? [text] : [];
    }),
  ];
  return html`<section class="card" aria-labelledby="card-title" data-test="card-section">
<h2 id="card-title">Change card</h2>
<p class="hint">The new card is charged from the next payment on; nothing is charged now. The card processor keeps it, not this site.</p>
<form method="post" action="${form.action}" novalidate data-test="card-form">
${
  problems.length > 0
    ? html`<div class="error-summary" role="alert" tabindex="-1" data-test="error-summary" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">There is a problem</h2>
<ul>${problems.map((p) => html`<li>${p}</li>`)}</ul>
</div>`
    : null
}
<input type="hidden" name="${CSRF_FIELD}" value="${form.csrfToken}">
<input type="hidden" name="sig" value="${form.signature}">
${cardInput('card_number', 'cc-number', 40, form.errors)}
${cardInput('card_expiry', 'cc-exp', 7, form.errors, { placeholder: 'MM/YY', short: true })}
${cardInput('card_cvc', 'cc-csc', 4, form.errors, { short: true })}
${cardInput('card_holder_name', 'cc-name', 64, form.errors)}
<button type="submit" class="pay" data-test="save-card">Save card</button>
</form>
</section>`;
}

/** The payer's subscription: what they bought, where it stands, what comes next, and what they can do. */
export function renderSubscriptionPage(ctx: SubscriptionPageContext, model: SubscriptionModel): SafeHtml {
  const manage = model.manage;
  const body = html`${model.notice ? html`<p class="notice" role="status" data-test="notice">${model.notice}</p>` : null}
<section class="card" aria-labelledby="subscription-title" data-test="subscription" data-status="${model.status}">
<h1 id="subscription-title" data-test="title">${model.title}</h1>
<p class="amount" data-test="amount">${model.priceText}</p>
<dl class="facts">
<dt>Status</dt><dd data-test="status">${model.statusText}</dd>
<dt>Plan</dt><dd data-test="duration">${model.durationText}</dd>
${model.trialText ? html`<dt>Free trial</dt><dd data-test="trial">${model.trialText}</dd>` : null}
${model.signupFeeText ? html`<dt>Sign-up fee</dt><dd data-test="signup-fee">${model.signupFeeText}</dd>` : null}
<dt>Periods paid</dt><dd data-test="periods-paid">${model.periodsText}</dd>
${manage?.currentPeriod ? html`<dt>Current period</dt><dd data-test="current-period">${manage.currentPeriod}</dd>` : null}
${manage?.next ? html`<dt>${manage.next.label}</dt><dd data-test="next-payment">${manage.next.date}</dd>` : null}
<dt>Payment method</dt><dd data-test="method">${manage?.cardText ?? model.methodName}</dd>
${model.reference ? html`<dt>Reference</dt><dd data-test="external-id">${model.reference}</dd>` : null}
${manage?.payerText ? html`<dt>Subscriber</dt><dd data-test="payer">${manage.payerText}</dd>` : null}
</dl>
${manage?.payNowUrl ? html`<p><a class="button" href="${manage.payNowUrl}" data-test="pay-now">Pay the renewal now</a></p>` : null}
</section>
${manage?.cardForm ? cardFormView(manage.cardForm) : null}
${
  manage
    ? html`<section class="card" aria-labelledby="cancel-title">
<h2 id="cancel-title">Cancel</h2>
<p class="hint">No further payments are taken once you cancel.</p>
<p><a class="button button--secondary" href="${manage.cancelUrl}" data-test="cancel-link">Cancel subscription</a></p>
</section>`
    : null
}`;
  return layout(ctx, model.title, body);
}

/** The confirmation step before cancelling: a form post, so a prefetched link can never cancel. */
export function renderCancelConfirm(
  ctx: SubscriptionPageContext,
  model: { title: string; priceText: string; action: string; csrfToken: string; signature: string; backUrl: string },
): SafeHtml {
  const body = html`<section class="card" aria-labelledby="confirm-title" data-test="cancel-confirm">
<h1 id="confirm-title">Cancel ${model.title}?</h1>
<p>${model.priceText}. After you cancel, no further payment is taken and the subscription cannot be resumed.</p>
<form method="post" action="${model.action}" data-test="cancel-form">
<input type="hidden" name="${CSRF_FIELD}" value="${model.csrfToken}">
<input type="hidden" name="sig" value="${model.signature}">
<div class="actions">
<button type="submit" class="pay" data-test="confirm-cancel">Yes, cancel subscription</button>
<a class="button button--secondary" href="${model.backUrl}" data-test="keep">Keep subscription</a>
</div>
</form>
</section>`;
  return layout(ctx, `Cancel ${model.title}`, body);
}

export type SubscriptionStateKind = 'notFound' | 'csrf' | 'error' | 'badRequest';

const STATE_TEXTS: Record<SubscriptionStateKind, readonly [string, string]> = {
  notFound: [
    'Subscription not found',
    'This link is not valid. Open the most recent e-mail about your subscription and use its link.',
  ],
  csrf: ['This form has expired', 'Go back to your subscription, reload the page and try again.'],
  error: ['Something went wrong', 'Nothing was changed. Please try again in a moment.'],
  badRequest: ['This request could not be handled', 'Go back to your subscription and try again.'],
};

/** Pages for an unknown or unsigned link and for refused or failed requests. */
export function renderSubscriptionState(
  ctx: SubscriptionPageContext,
  kind: SubscriptionStateKind,
  backUrl: string | null = null,
): SafeHtml {
  const [title, text] = STATE_TEXTS[kind];
  const body = html`<section class="card" aria-labelledby="state-title" data-test="subscription-${kind}">
<h1 id="state-title">${title}</h1>
<p>${text}</p>
${backUrl ? html`<p><a class="button" href="${backUrl}" data-test="back">Back to your subscription</a></p>` : null}
</section>`;
  return layout(ctx, title, body);
}
