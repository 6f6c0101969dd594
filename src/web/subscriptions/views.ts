import type { RecurrentPaymentStatus } from '../../domain/subscriptions/recurrent-payment.status.ts';
import type { SafeHtml } from '../kit/html.ts';
import { html } from '../kit/html.ts';
import type { PageContext } from '../kit/payer-layout.ts';
import { layout } from '../kit/payer-layout.ts';
import { CSRF_FIELD } from '../kit/security.ts';
import type { SubscriptionMessages } from './messages.ts';

/** What every subscription page needs besides its content: the payer pages' context and these pages' texts. */
export type SubscriptionPageContext = PageContext & { t: SubscriptionMessages };

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
  /** "$9.99 every month". */
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

function cardInput(
  ctx: SubscriptionPageContext,
  key: CardFormField,
  autocomplete: string,
  maxLength: number,
  errors: CardForm['errors'],
  extra: { placeholder?: string; short?: boolean } = {},
): SafeHtml {
  const error = errors[key];
  return html`<div class="field${error ? ' field--error' : ''}">
<label for="${key}">${ctx.messages.labels[key]}</label>
${error ? html`<span class="field-error" id="${key}-error" data-test="error-${key}">${error}</span>` : null}
<input id="${key}" name="${key}" type="text" autocomplete="${autocomplete}" value="" maxlength="${maxLength}" inputmode="${key === 'card_holder_name' ? 'text' : 'numeric'}"${extra.short ? html` class="short"` : null}${extra.placeholder ? html` placeholder="${extra.placeholder}"` : null} required aria-required="true"${error ? html` aria-invalid="true" aria-describedby="${key}-error"` : null} spellcheck="false">
</div>`;
}

/** The card change: always rendered empty (what the payer typed is never sent back). */
function cardFormView(ctx: SubscriptionPageContext, form: CardForm): SafeHtml {
  const { t, messages: m } = ctx;
  const problems = [
    ...form.general,
    ...(['card_number', 'card_expiry', 'card_cvc', 'card_holder_name'] as const).flatMap((k) => {
      const text = form.errors[k];
      return text ? [text] : [];
    }),
  ];
  return html`<section class="card" aria-labelledby="card-title" data-test="card-section">
<h2 id="card-title">${t.changeCard}</h2>
<p class="hint">${t.changeCardHint}</p>
<form method="post" action="${form.action}" novalidate data-test="card-form">
${
  problems.length > 0
    ? html`<div class="error-summary" role="alert" tabindex="-1" data-test="error-summary" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${m.errorSummaryTitle}</h2>
<ul>${problems.map((p) => html`<li>${p}</li>`)}</ul>
</div>`
    : null
}
<input type="hidden" name="${CSRF_FIELD}" value="${form.csrfToken}">
<input type="hidden" name="sig" value="${form.signature}">
${cardInput(ctx, 'card_number', 'cc-number', 40, form.errors)}
${cardInput(ctx, 'card_expiry', 'cc-exp', 7, form.errors, { placeholder: m.expiryPlaceholder, short: true })}
${cardInput(ctx, 'card_cvc', 'cc-csc', 4, form.errors, { short: true })}
${cardInput(ctx, 'card_holder_name', 'cc-name', 64, form.errors)}
<button type="submit" class="pay" data-test="save-card">${t.saveCard}</button>
</form>
</section>`;
}

/** The payer's subscription: what they bought, where it stands, what comes next, and what they can do. */
export function renderSubscriptionPage(ctx: SubscriptionPageContext, model: SubscriptionModel): SafeHtml {
  const { t } = ctx;
  const manage = model.manage;
  const body = html`${model.notice ? html`<p class="notice" role="status" data-test="notice">${model.notice}</p>` : null}
<section class="card" aria-labelledby="subscription-title" data-test="subscription" data-status="${model.status}">
<h1 id="subscription-title" data-test="title">${model.title}</h1>
<p class="amount" data-test="amount">${model.priceText}</p>
<dl class="facts">
<dt>${t.status}</dt><dd data-test="status">${model.statusText}</dd>
<dt>${t.plan}</dt><dd data-test="duration">${model.durationText}</dd>
${model.trialText ? html`<dt>${t.freeTrial}</dt><dd data-test="trial">${model.trialText}</dd>` : null}
${model.signupFeeText ? html`<dt>${t.signupFee}</dt><dd data-test="signup-fee">${model.signupFeeText}</dd>` : null}
<dt>${t.periodsPaid}</dt><dd data-test="periods-paid">${model.periodsText}</dd>
${manage?.currentPeriod ? html`<dt>${t.currentPeriod}</dt><dd data-test="current-period">${manage.currentPeriod}</dd>` : null}
${manage?.next ? html`<dt>${manage.next.label}</dt><dd data-test="next-payment">${manage.next.date}</dd>` : null}
<dt>${t.paymentMethod}</dt><dd data-test="method">${manage?.cardText ?? model.methodName}</dd>
${model.reference ? html`<dt>${t.reference}</dt><dd data-test="external-id">${model.reference}</dd>` : null}
${manage?.payerText ? html`<dt>${t.subscriber}</dt><dd data-test="payer">${manage.payerText}</dd>` : null}
</dl>
${manage?.payNowUrl ? html`<p><a class="button" href="${manage.payNowUrl}" data-test="pay-now">${t.payNow}</a></p>` : null}
</section>
${manage?.cardForm ? cardFormView(ctx, manage.cardForm) : null}
${
  manage
    ? html`<section class="card" aria-labelledby="cancel-title">
<h2 id="cancel-title">${t.cancelHeading}</h2>
<p class="hint">${t.cancelHint}</p>
<p><a class="button button--secondary" href="${manage.cancelUrl}" data-test="cancel-link">${t.cancelLink}</a></p>
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
  const { t } = ctx;
  const body = html`<section class="card" aria-labelledby="confirm-title" data-test="cancel-confirm">
<h1 id="confirm-title">${t.confirmTitle(model.title)}</h1>
<p>${t.confirmText(model.priceText)}</p>
<form method="post" action="${model.action}" data-test="cancel-form">
<input type="hidden" name="${CSRF_FIELD}" value="${model.csrfToken}">
<input type="hidden" name="sig" value="${model.signature}">
<div class="actions">
<button type="submit" class="pay" data-test="confirm-cancel">${t.confirmCancel}</button>
<a class="button button--secondary" href="${model.backUrl}" data-test="keep">${t.keep}</a>
</div>
</form>
</section>`;
  return layout(ctx, t.confirmTitle(model.title), body);
}

export type SubscriptionStateKind = keyof SubscriptionMessages['states'];

/** Pages for an unknown or unsigned link and for refused or failed requests. */
export function renderSubscriptionState(
  ctx: SubscriptionPageContext,
  kind: SubscriptionStateKind,
  backUrl: string | null = null,
): SafeHtml {
  const [title, text] = ctx.t.states[kind];
  const body = html`<section class="card" aria-labelledby="state-title" data-test="subscription-${kind}">
<h1 id="state-title">${title}</h1>
<p>${text}</p>
${backUrl ? html`<p><a class="button" href="${backUrl}" data-test="back">${ctx.t.back}</a></p>` : null}
</section>`;
  return layout(ctx, title, body);
}
