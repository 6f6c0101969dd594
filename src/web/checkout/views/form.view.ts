import type { CheckoutPreference } from '../../../domain/checkout-preferences/checkout-preference.ts';
import type { PaymentMethod } from '../../../domain/payment-methods/payment-method.ts';
import type { AskedPayer, FieldErrors, FieldKey, FormValues } from '../../kit/form-input.ts';
import { methodName } from '../../kit/format.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import type { PageContext } from '../../kit/payer-layout.ts';
import { layout, payableFactsOf, receiptOf, summary } from '../../kit/payer-layout.ts';
import type { LabelKey, Messages } from '../../kit/payer-messages.ts';
import { CSRF_FIELD } from '../../kit/security.ts';
import { backToMethods, carriedDetails, carriedPayer } from './card-step.view.ts';

export type FormModel = {
  pref: CheckoutPreference;
  amountText: string;
  /** The methods the payer may choose (already narrowed to the selected one when the merchant chose). */
  methods: readonly PaymentMethod[];
  asked: AskedPayer;
  values: FormValues;
  errors: FieldErrors;
  /** Problems that belong to no single field (a charge already running, too many declines…). */
  general: readonly string[];
  csrfToken: string;
  /** Set when an order of this checkout is still open: a link back to its instructions. */
  openOrderUrl: string | null;
  /**
   * 'card': the card step, after Card was chosen among several methods without the payer
   * script; the details already given travel as hidden fields (views/card-step.view.ts).
   */
  step: 'details' | 'card';
  /**
   * Cards go through the merchant's own processor: no card field of ours is ever rendered (the
   * processor's own fields come on the next page, once the order is open).
   */
  cardsByProcessor: boolean;
};

type InputSpec = {
  key: FieldKey & LabelKey;
  type: 'text' | 'email' | 'tel';
  autocomplete: string;
  value: string;
  required: boolean;
  maxLength: number;
  inputMode?: 'numeric' | 'email' | 'tel';
  placeholder?: string;
  extraHint?: string;
  short?: boolean;
};

/** One labelled input: the label in the page's language, any hint as description, the error beside it. */
function input(spec: InputSpec, errors: FieldErrors, m: Messages): SafeHtml {
  const error = errors[spec.key];
  const described: string[] = [];
  if (spec.extraHint) {
    described.push(`${spec.key}-hint`);
  }
  if (error) {
    described.push(`${spec.key}-error`);
  }
  return html`<div class="field${error ? ' field--error' : ''}">
<label for="${spec.key}">${m.labels[spec.key]}</label>
${spec.extraHint ? html`<span class="hint" id="${spec.key}-hint">${spec.extraHint}</span>` : null}
${error ? html`<span class="field-error" id="${spec.key}-error" data-test="error-${spec.key}">${error}</span>` : null}
<input id="${spec.key}" name="${spec.key}" type="${spec.type}" autocomplete="${spec.autocomplete}" value="${spec.value}" maxlength="${spec.maxLength}"${spec.short ? html` class="short"` : null}${spec.inputMode ? html` inputmode="${spec.inputMode}"` : null}${spec.placeholder ? html` placeholder="${spec.placeholder}"` : null}${spec.required ? html` required aria-required="true"` : null}${described.length > 0 ? html` aria-describedby="${described.join(' ')}"` : null}${error ? html` aria-invalid="true"` : null} spellcheck="false">
</div>`;
}

const FIELD_ORDER: readonly FieldKey[] = [
  'email',
  'first_name',
  'last_name',
  'phone',
  'payment_method_id',
  'card_number',
  'card_expiry',
  'card_cvc',
  'card_holder_name',
];

/** The error summary: announced at once (role="alert"), each entry a link to its field. */
function errorSummary(model: FormModel, m: Messages): SafeHtml | null {
  const firstMethodId = model.methods[0] ? `method-${model.methods[0].id}` : 'methods';
  const items = FIELD_ORDER.flatMap((key) => {
    const text = model.errors[key];
    if (!text) {
      return [];
    }
    const target = key === 'payment_method_id' ? firstMethodId : key;
    return [html`<li><a href="#${target}">${text}</a></li>`];
  });
  const general = model.general.map((text) => html`<li>${text}</li>`);
  if (items.length === 0 && general.length === 0) {
    return null;
  }
  return html`<div class="error-summary" role="alert" tabindex="-1" data-test="error-summary" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${m.errorSummaryTitle}</h2>
<ul>${general}${items}</ul>
</div>`;
}

function methodChoice(model: FormModel, m: Messages): SafeHtml {
  if (model.pref.selectedPaymentMethodId !== null) {
    const only = model.methods[0];
    return html`<div class="field"><span class="hint">${m.paymentMethod}</span> <strong data-test="selected-method">${only ? methodName(only, m.locale) : ''}</strong></div>`;
  }
  const error = model.errors.payment_method_id;
  const chosen = model.values.payment_method_id || (model.methods.length === 1 ? (model.methods[0]?.id ?? '') : '');
  const choices = model.methods.map((method) => {
    const id = `method-${method.id}`;
    return html`<div class="choice">
<input type="radio" id="${id}" name="payment_method_id" value="${method.id}" data-method-type="${method.type}"${chosen === method.id ? html` checked` : null}${error ? html` aria-invalid="true"` : null}>
<label for="${id}">${methodName(method, m.locale)}</label>
</div>`;
  });
  return html`<fieldset id="methods"${error ? html` aria-describedby="payment_method_id-error"` : null}>
<legend>${m.paymentMethod}</legend>
${error ? html`<span class="field-error" id="payment_method_id-error" data-test="error-payment_method_id">${error}</span>` : null}
<div class="choices">${choices}</div>
</fieldset>`;
}

/**
 * The card fields, always rendered empty: what the payer typed is never sent back (card data is
 * never stored, logged or echoed, docs/reliability.md). Shown and required on the card step and
 * when a card is the only way to pay. When the payer still chooses among several methods they
 * are sent hidden and disabled (so never posted): the payer script shows them while Card is
 * chosen, and without it choosing Card leads to the card step. No PIX payer sees them.
 */
function cardFields(model: FormModel, m: Messages): SafeHtml | null {
  if (model.cardsByProcessor || !model.methods.some((method) => method.type === 'CARD')) {
    return null;
  }
  const shown = model.step === 'card' || model.methods.every((method) => method.type === 'CARD');
  const e = model.errors;
  return html`<fieldset class="card-fields" id="card-fields" data-test="card-fields"${shown ? null : html` data-card-on-choice hidden disabled`}>
<legend>${model.step === 'card' ? html`<h2 id="card-step-title">${m.cardDetails}</h2>` : m.cardDetails}</legend>
${input({ key: 'card_number', type: 'text', autocomplete: 'cc-number', value: '', required: shown, maxLength: 40, inputMode: 'numeric' }, e, m)}
${input({ key: 'card_expiry', type: 'text', autocomplete: 'cc-exp', value: '', required: shown, maxLength: 7, inputMode: 'numeric', placeholder: m.expiryPlaceholder, short: true }, e, m)}
${input({ key: 'card_cvc', type: 'text', autocomplete: 'cc-csc', value: '', required: shown, maxLength: 4, inputMode: 'numeric', short: true }, e, m)}
${input({ key: 'card_holder_name', type: 'text', autocomplete: 'cc-name', value: '', required: shown, maxLength: 64 }, e, m)}
${model.pref.type === 'SUBSCRIPTION' ? html`<p class="notice">${m.subscriptionCardNotice}</p>` : null}
</fieldset>`;
}

/** The checkout: payer details the merchant did not give, the method choice unless selected, the card step. */
export function renderCheckoutForm(ctx: PageContext, model: FormModel): SafeHtml {
  const m = ctx.messages;
  const { asked, values, errors } = model;
  const cardStep =
    model.step === 'card' ? model.methods.find((method) => method.id === values.payment_method_id) : undefined;
  const anyPayer = !cardStep && (asked.email || asked.first_name || asked.last_name || asked.phone);
  const body = html`${summary(receiptOf(model.pref, model.amountText), m, { payable: cardStep ? carriedPayer(model.pref, values) : payableFactsOf(model.pref) })}
${model.openOrderUrl ? html`<p class="notice" data-test="open-order">${m.paymentInProgress} <a href="${model.openOrderUrl}">${m.viewInstructions}</a></p>` : null}
<form class="card" method="post" action="/checkout/${model.pref.id}" novalidate data-test="checkout-form">
${errorSummary(model, m)}
<input type="hidden" name="${CSRF_FIELD}" value="${model.csrfToken}">
${
  anyPayer
    ? html`<fieldset>
<legend>${m.yourDetails}</legend>
${asked.email ? input({ key: 'email', type: 'email', autocomplete: 'email', value: values.email, required: true, maxLength: 254, inputMode: 'email' }, errors, m) : null}
${asked.first_name ? input({ key: 'first_name', type: 'text', autocomplete: 'given-name', value: values.first_name, required: true, maxLength: 200 }, errors, m) : null}
${asked.last_name ? input({ key: 'last_name', type: 'text', autocomplete: 'family-name', value: values.last_name, required: true, maxLength: 200 }, errors, m) : null}
${asked.phone ? input({ key: 'phone', type: 'tel', autocomplete: 'tel', value: values.phone, required: false, maxLength: 40, inputMode: 'tel', extraHint: `${m.optional} ${m.phoneHint}` }, errors, m) : null}
</fieldset>`
    : null
}
${cardStep ? carriedDetails(asked, values, cardStep, m) : methodChoice(model, m)}
${cardFields(model, m)}
<button type="submit" class="pay" data-test="pay-button">${m.labels.pay}</button>
${cardStep ? backToMethods(m) : null}
</form>`;
  return layout(ctx, cardStep ? `${m.cardDetails} · ${model.pref.title}` : model.pref.title, body);
}
