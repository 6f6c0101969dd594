import type { CheckoutPreference } from '../../domain/checkout-preferences/checkout-preference.ts';
import type { AppError } from '../../domain/shared/errors.ts';
import type { Messages } from './payer-messages.ts';
import { CSRF_FIELD } from './security.ts';

/** The form's fields, named as posted (and as element ids). */
export type FieldKey =
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'phone'
  | 'payment_method_id'
  | 'card_number'
  | 'card_expiry'
  | 'card_cvc'
  | 'card_holder_name';

export type FieldErrors = Partial<Record<FieldKey, string>>;

/** What may be shown again after a failed submission. Card data is deliberately not part of it. */
export type FormValues = {
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  payment_method_id: string;
};

/** Card data as typed; handed to the payment service and dropped, never rendered or logged. */
export type CardFields = { number: string; expiry: string; cvc: string; holderName: string };

/** `card` is null when the post carried no card field at all (a form whose card fields were never shown). */
export type Submission = { values: FormValues; card: CardFields | null; csrfToken: string | null };

/** Which payer details the checkout asks for: only those the merchant did not give. */
export type AskedPayer = { email: boolean; first_name: boolean; last_name: boolean; phone: boolean };

export function askedPayer(pref: CheckoutPreference): AskedPayer {
  return {
    email: pref.payer.email === null,
    first_name: pref.payer.firstName === null,
    last_name: pref.payer.lastName === null,
    phone: pref.payer.phoneNumber === null,
  };
}

export const EMPTY_VALUES: FormValues = { email: '', first_name: '', last_name: '', phone: '', payment_method_id: '' };

/** One posted value as text: the first when a name is repeated, '' when absent or not text. */
export function formField(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) {
    return '';
  }
  const value: unknown = (body as Record<string, unknown>)[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** The card's fields, named as posted. */
export const CARD_FIELD_NAMES: readonly FieldKey[] = ['card_number', 'card_expiry', 'card_cvc', 'card_holder_name'];

export function readSubmission(body: unknown): Submission {
  const token = formField(body, CSRF_FIELD);
  const cardPosted = typeof body === 'object' && body !== null && CARD_FIELD_NAMES.some((name) => name in body);
  return {
    values: {
      email: formField(body, 'email').trim(),
      first_name: formField(body, 'first_name').trim(),
      last_name: formField(body, 'last_name').trim(),
      phone: formField(body, 'phone').trim(),
      payment_method_id: formField(body, 'payment_method_id').trim(),
    },
    card: cardPosted
      ? {
          number: formField(body, 'card_number'),
          expiry: formField(body, 'card_expiry'),
          cvc: formField(body, 'card_cvc'),
          holderName: formField(body, 'card_holder_name'),
        }
      : null,
    csrfToken: token === '' ? null : token,
  };
}

/** Upper bounds the browser's maxlength already applies; a longer value is refused before anything else runs. */
const MAX_LENGTH: Readonly<Record<FieldKey, number>> = {
  email: 254,
  first_name: 200,
  last_name: 200,
  phone: 40,
  payment_method_id: 64,
  card_number: 40,
  card_expiry: 10,
  card_cvc: 10,
  card_holder_name: 100,
};

/** Length checks the payment service does not make for checkout input (the API's schema makes them for API calls). */
export function lengthErrors(submission: Submission, messages: Messages): FieldErrors {
  const errors: FieldErrors = {};
  const card = submission.card;
  const lengths: (readonly [FieldKey, string])[] = [
    ['email', submission.values.email],
    ['first_name', submission.values.first_name],
    ['last_name', submission.values.last_name],
    ['phone', submission.values.phone],
    ['payment_method_id', submission.values.payment_method_id],
    ...(card
      ? ([
          ['card_number', card.number],
          ['card_expiry', card.expiry],
          ['card_cvc', card.cvc],
          ['card_holder_name', card.holderName],
        ] as const)
      : []),
  ];
  for (const [key, value] of lengths) {
    if ([...value].length > MAX_LENGTH[key]) {
      errors[key] = messages.errors.tooLong;
    }
  }
  return errors;
}

/**
 * Turns the payment service's WRONG_INPUT messages (each starts with the wire field path) into
 * localized messages next to the form's fields. The service's own text is never shown: it is
 * English and meant for API clients.
 */
export function fieldErrorsFrom(error: AppError, messages: Messages): { fields: FieldErrors; general: string[] } {
  const e = messages.errors;
  const fields: FieldErrors = {};
  const general: string[] = [];
  const set = (key: FieldKey, text: string) => {
    fields[key] ??= text;
  };
  for (const message of error.messages) {
    if (message.startsWith('payer.email')) {
      set('email', message.endsWith('is required') ? e.emailRequired : e.emailInvalid);
    } else if (message.startsWith('payer.first_name') || message.startsWith('payer: name')) {
      set('first_name', e.firstNameRequired);
    } else if (message.startsWith('payer.last_name')) {
      set('last_name', e.lastNameRequired);
    } else if (message.startsWith('payer.phone')) {
      set('phone', e.phoneInvalid);
    } else if (message.startsWith('payment_method_id')) {
      set('payment_method_id', message.endsWith('is required') ? e.methodRequired : e.methodInvalid);
    } else if (message.startsWith('card.number')) {
      set('card_number', e.cardNumberInvalid);
    } else if (message.startsWith('card.expiry')) {
      set('card_expiry', /expired/i.test(message) ? e.cardExpired : e.cardExpiryInvalid);
    } else if (message.startsWith('card.cvc')) {
      set('card_cvc', e.cardCvcInvalid);
    } else if (message.startsWith('card.holder_name')) {
      set('card_holder_name', e.cardHolderInvalid);
    } else if (message.startsWith('card')) {
      set('card_number', e.cardRequired);
    } else {
      general.push(e.generic);
    }
  }
  return { fields, general: [...new Set(general)] };
}
