import type { CardBrand } from '../../domain/payment-methods/card-brand.ts';

export type CardField = 'number' | 'expiry' | 'cvc' | 'holderName';

export interface CardFieldError {
  field: CardField;
  message: string;
}

/** What checkout forms submit. `number` and `cvc` are secrets: they never leave this module in any result. */
export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
  holderName: string;
}

/** The non-sensitive description of a card that may be stored and shown. */
export interface CardSummary {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  holderName: string;
}

export type CardValidation = { ok: true; card: CardSummary } | { ok: false; errors: CardFieldError[] };

export type ExpiryResult = { ok: true; month: number; year: number } | { ok: false; error: 'malformed' | 'expired' };

type Range = readonly [low: number, high: number];

interface BrandRule {
  brand: CardBrand;
  /** Inclusive ranges of the leading digits; both ends of a range have the same number of digits. */
  prefixes: readonly Range[];
  lengths: readonly number[];
}

const single = (n: number): Range => [n, n];

// Order matters: Elo and Hipercard issue from BINs that sit inside the Visa, Discover and Diners
// ranges, so the narrow rules are tried first. Ranges follow braintree/credit-card-type (card-types.ts)
// plus the 3841x0 Hipercard BINs used by Brazilian acquirers.
const RULES: readonly BrandRule[] = [
  {
    brand: 'ELO',
    prefixes: [
      single(401178),
      single(401179),
      single(431274),
      single(438935),
      single(451416),
      single(457393),
      single(457631),
      single(457632),
      single(504175),
      [506699, 506778],
      [509000, 509999],
      single(627780),
      single(636297),
      single(636368),
      [650031, 650033],
      [650035, 650051],
      [650405, 650439],
      [650485, 650538],
      [650541, 650598],
      [650700, 650718],
      [650720, 650727],
      [650901, 650978],
      [651652, 651679],
      [655000, 655019],
      [655021, 655058],
    ],
    lengths: [16],
  },
  {
    brand: 'HIPERCARD',
    prefixes: [single(606282), single(384100), single(384140), single(384160)],
    lengths: [13, 16, 19],
  },
  { brand: 'AMEX', prefixes: [single(34), single(37)], lengths: [15] },
  { brand: 'DINERS', prefixes: [[300, 305], single(36), single(38), single(39)], lengths: [14, 15, 16, 17, 18, 19] },
  { brand: 'JCB', prefixes: [[3528, 3589]], lengths: [16, 17, 18, 19] },
  { brand: 'DISCOVER', prefixes: [single(6011), [644, 649], single(65)], lengths: [16, 17, 18, 19] },
  {
    brand: 'MASTERCARD',
    prefixes: [
      [51, 55],
      [2221, 2720],
    ],
    lengths: [16],
  },
  { brand: 'VISA', prefixes: [single(4)], lengths: [13, 16, 19] },
];

const UNKNOWN_LENGTHS: readonly number[] = [12, 13, 14, 15, 16, 17, 18, 19];

const BRAND_NAMES: Readonly<Record<CardBrand, string>> = {
  VISA: 'Visa',
  MASTERCARD: 'Mastercard',
  AMEX: 'American Express',
  DISCOVER: 'Discover',
  DINERS: 'Diners Club',
  JCB: 'JCB',
  ELO: 'Elo',
  HIPERCARD: 'Hipercard',
  UNKNOWN: 'this card',
};

function matchesPrefix(pan: string, [low, high]: Range): boolean {
  const width = String(low).length;
  if (pan.length < width) {
    return false;
  }
  const head = Number(pan.slice(0, width));
  return head >= low && head <= high;
}

function ruleFor(pan: string): BrandRule | undefined {
  return RULES.find((rule) => rule.prefixes.some((range) => matchesPrefix(pan, range)));
}

/**
 * Luhn (mod 10) check of a digit string.
 *
 * @returns false for empty input or anything that is not only digits.
 */
export function luhnValid(pan: string): boolean {
  if (!/^[0-9]+$/.test(pan)) {
    return false;
  }
  let sum = 0;
  let double = false;
  for (let i = pan.length - 1; i >= 0; i--) {
    let digit = pan.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) {
        digit -= 9;
      }
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Card network from the leading digits (IIN/BIN) of a digit string; `UNKNOWN` when none matches. */
export function detectBrand(pan: string): CardBrand {
  return ruleFor(pan)?.brand ?? 'UNKNOWN';
}

/** Valid PAN lengths for a brand. */
export function panLengthsFor(brand: CardBrand): readonly number[] {
  return RULES.find((rule) => rule.brand === brand)?.lengths ?? UNKNOWN_LENGTHS;
}

/** Digits in the security code printed on the card: American Express uses a 4-digit CID, the rest 3. */
export function cvcLengthFor(brand: CardBrand): 3 | 4 {
  return brand === 'AMEX' ? 4 : 3;
}

/**
 * Strips the spaces and dashes people type or paste into card fields.
 *
 * @returns The digits, or `null` unless the result is 12 to 19 digits and nothing else.
 */
export function normalizePan(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return /^[0-9]{12,19}$/.test(digits) ? digits : null;
}

/** Month index counted from year 0, so two (year, month) pairs compare as plain numbers. */
const monthIndex = (year: number, month: number): number => year * 12 + (month - 1);

/**
 * Reads an expiry written `MM/YY` or `MM/YYYY` (spaces around the slash tolerated).
 *
 * A card is valid through the last day of its expiry month. The month is judged at UTC−12, the last
 * place on Earth where a month ends, so no payer is refused while their card is still valid locally;
 * the issuer remains the final judge.
 */
export function parseExpiry(text: string, now: Date): ExpiryResult {
  const match = /^\s*([0-9]{1,2})\s*\/\s*([0-9]{2}|[0-9]{4})\s*$/.exec(text);
  if (match === null) {
    return { ok: false, error: 'malformed' };
  }
  const month = Number(match[1]);
  const rawYear = match[2] ?? '';
  const year = rawYear.length === 2 ? 2000 + Number(rawYear) : Number(rawYear);
  if (month < 1 || month > 12) {
    return { ok: false, error: 'malformed' };
  }
  const latest = new Date(now.getTime() - 12 * 60 * 60 * 1000);
  const current = monthIndex(latest.getUTCFullYear(), latest.getUTCMonth() + 1);
  if (monthIndex(year, month) < current) {
    return { ok: false, error: 'expired' };
  }
  // No network issues cards valid for more than a couple of decades; a far year is a typo.
  if (year > latest.getUTCFullYear() + 25) {
    return { ok: false, error: 'malformed' };
  }
  return { ok: true, month, year };
}

function checkHolderName(raw: string): { name: string } | { message: string } {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name.length === 0) {
    return { message: 'Cardholder name is required.' };
  }
  if (name.length > 64) {
    return { message: 'Cardholder name must be at most 64 characters.' };
  }
  // Letters from any script plus the punctuation found in real names; digits are refused, which
  // also stops a card number typed into this field from being stored as a "name".
  if (!/^[\p{L}\p{M}][\p{L}\p{M} '.-]*$/u.test(name)) {
    return { message: 'Cardholder name may contain only letters, spaces, apostrophes, hyphens and periods.' };
  }
  return { name };
}

/**
 * Validates what a checkout form submitted and returns only the non-sensitive summary.
 *
 * No error message, and nothing in the returned object, contains the card number or the security
 * code, so results can be logged and returned to clients as they are.
 */
export function validateCard(input: CardInput, now: Date): CardValidation {
  const errors: CardFieldError[] = [];

  const pan = normalizePan(input.number);
  let brand: CardBrand = 'UNKNOWN';
  if (pan === null) {
    errors.push({ field: 'number', message: 'Card number must be 12 to 19 digits.' });
  } else {
    brand = detectBrand(pan);
    if (!panLengthsFor(brand).includes(pan.length)) {
      errors.push({
        field: 'number',
        message: `Card number has the wrong number of digits for ${BRAND_NAMES[brand]}.`,
      });
    } else if (!luhnValid(pan)) {
      errors.push({ field: 'number', message: 'Card number is not valid; please check it for typos.' });
    }
  }

  const expiry = parseExpiry(input.expiry, now);
  if (!expiry.ok) {
    errors.push({
      field: 'expiry',
      message:
        expiry.error === 'expired'
          ? 'Card has expired.'
          : 'Expiry date must be a valid month written MM/YY or MM/YYYY.',
    });
  }

  const cvcLength = cvcLengthFor(brand);
  const cvc = input.cvc.trim();
  const cvcOk = brand === 'UNKNOWN' ? /^[0-9]{3,4}$/.test(cvc) : new RegExp(`^[0-9]{${cvcLength}}$`).test(cvc);
  if (!cvcOk) {
    errors.push({
      field: 'cvc',
      message:
        brand === 'UNKNOWN' ? 'Security code must be 3 or 4 digits.' : `Security code must be ${cvcLength} digits.`,
    });
  }

  const holder = checkHolderName(input.holderName);
  if ('message' in holder) {
    errors.push({ field: 'holderName', message: holder.message });
  }

  if (errors.length > 0 || pan === null || !expiry.ok || !('name' in holder)) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    card: { brand, last4: pan.slice(-4), expMonth: expiry.month, expYear: expiry.year, holderName: holder.name },
  };
}
