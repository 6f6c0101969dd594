import type { CheckoutPreference } from '../../../domain/checkout-preferences/checkout-preference.ts';
import type { PaymentMethod } from '../../../domain/payment-methods/payment-method.ts';
import type { AskedPayer, FormValues } from '../../kit/form-input.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import type { PayableFacts } from '../../kit/payer-layout.ts';
import { payableFactsOf } from '../../kit/payer-layout.ts';
import type { Messages } from '../../kit/payer-messages.ts';

/** The posted field that says a submission comes from the card step (its errors are shown there again). */
export const STEP_FIELD = 'step';
/** The card step's second button: back to the method choice, with the details kept. */
export const BACK_FIELD = 'back';

/*
 * The card step: when the payer chooses among several methods and picks Card without the
 * payer script (which shows the card fields in place), the form comes back with the card fields
 * alone. What the payer already gave travels as hidden fields and is shown for them to check.
 * Card data is never among them: the card fields are always rendered empty.
 */

/** The details given on the first page, carried as hidden fields, and the method, fixed. */
export function carriedDetails(asked: AskedPayer, values: FormValues, method: PaymentMethod, m: Messages): SafeHtml {
  const keep = (name: keyof FormValues, wanted: boolean) =>
    wanted ? html`<input type="hidden" name="${name}" value="${values[name]}">` : null;
  return html`<input type="hidden" name="${STEP_FIELD}" value="card">
${keep('email', asked.email)}${keep('first_name', asked.first_name)}${keep('last_name', asked.last_name)}${keep('phone', asked.phone)}
<input type="hidden" name="payment_method_id" value="${method.id}">
<div class="field"><span class="hint">${m.paymentMethod}</span> <strong data-test="selected-method">${m.methodTypeNames[method.type]}</strong></div>`;
}

/** Who pays, as the summary shows it on the card step: what the merchant gave, then what the payer typed. */
export function carriedPayer(pref: CheckoutPreference, values: FormValues): PayableFacts {
  const typed = (value: string) => (value === '' ? null : value);
  return payableFactsOf({
    status: pref.status,
    expiresAt: pref.expiresAt,
    payer: {
      email: pref.payer.email ?? typed(values.email),
      firstName: pref.payer.firstName ?? typed(values.first_name),
      lastName: pref.payer.lastName ?? typed(values.last_name),
      phoneNumber: pref.payer.phoneNumber ?? typed(values.phone),
    },
  });
}

/**
 * Back to the methods: a second submit button of the same form (after Pay, which stays the one
 * Enter presses), so the details come back with it; whatever is in the card fields is dropped.
 */
export function backToMethods(m: Messages): SafeHtml {
  return html`<div class="actions"><button type="submit" name="${BACK_FIELD}" value="methods" class="button--secondary" formnovalidate data-test="choose-another-method">${m.chooseAnother}</button></div>`;
}
