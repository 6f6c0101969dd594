import type { Payer } from './checkout-preference.ts';

/** Payer members as they arrive: both spellings of the ONE.lat clients are accepted. */
export type PayerInput = {
  email?: string | null;
  name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  phone_number?: string | null;
};

// The WHATWG (HTML living standard) e-mail grammar, what browsers accept in type=email.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** Empty and whitespace-only strings mean "not given" (clients send `""` for unknown fields). */
function given(value: string | null | undefined): string | null {
  if (value === undefined || value === null) {
    return null;
  }
  const trimmed = value.trim();
  return trimmed.length === 0 ? null : trimmed;
}

function oneOf(field: string, a: string | null, aName: string, b: string | null, bName: string, messages: string[]) {
  if (a !== null && b !== null && a !== b) {
    messages.push(`${field}: ${aName} and ${bName} are two spellings of one field and were given different values`);
  }
  return a ?? b;
}

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email);
}

/** `+56 9 1234-5678`, `(11) 98765-4321` with country code, `5491155556666` → `+` and digits, or null when invalid. */
export function normalizePhone(phone: string): string | null {
  const stripped = phone.replace(/[\s().-]/g, '');
  const m = /^\+?(\d{8,15})$/.exec(stripped);
  return m ? `+${m[1]}` : null;
}

export function normalizePayer(input: PayerInput | null | undefined, messages: string[]): Payer {
  const payer: Payer = { email: null, firstName: null, lastName: null, phoneNumber: null };
  if (!input) {
    return payer;
  }
  const email = given(input.email);
  if (email !== null) {
    if (isValidEmail(email)) {
      payer.email = email;
    } else {
      messages.push('payer.email must be a valid e-mail address');
    }
  }
  payer.firstName = oneOf('payer', given(input.name), 'name', given(input.first_name), 'first_name', messages);
  payer.lastName = given(input.last_name);
  for (const [field, value] of [
    ['payer.first_name', payer.firstName],
    ['payer.last_name', payer.lastName],
  ] as const) {
    if (value !== null && [...value].length > 200) {
      messages.push(`${field} must be at most 200 characters`);
    }
  }
  // Compared after normalising: `+56 9 1234 5678` and `56912345678` are one number, not a conflict.
  // A message names the spelling the client sent.
  const phones: (string | null)[] = [];
  for (const [name, raw] of [
    ['phone', given(input.phone)],
    ['phone_number', given(input.phone_number)],
  ] as const) {
    const phone = raw === null ? null : normalizePhone(raw);
    if (raw !== null && phone === null) {
      messages.push(`payer.${name} must be an international phone number: 8 to 15 digits, optionally starting with +`);
    }
    phones.push(phone);
  }
  payer.phoneNumber = oneOf('payer', phones[0] ?? null, 'phone', phones[1] ?? null, 'phone_number', messages);
  return payer;
}

const MAX_URL_LENGTH = 2048;

/**
 * Merchant URLs (webhook and payer redirects) must be absolute http(s) URLs with a host.
 * Checked on the raw text as well as the parsed URL, because WHATWG parsing "repairs" forms
 * such as `https:evil.example`, `\\evil.example` or tabs inside `java\tscript:` that browsers
 * would also repair, which is exactly how open redirects slip through.
 */
export function urlProblem(field: string, value: string): string | null {
  const problem = `${field} must be an absolute http or https URL with a host`;
  if (value.length > MAX_URL_LENGTH) {
    return `${field} must be at most ${MAX_URL_LENGTH} characters`;
  }
  // Control characters, spaces, backslashes and non-ASCII (IDN homographs) are refused outright.
  if (!/^https?:\/\/[\x21-\x7e]+$/i.test(value) || value.includes('\\')) {
    return problem;
  }
  // The authority as written: WHATWG parsing would take the host of `https:///evil.example`
  // from the path, and drops an empty user part (`https://@host`, `https://:@host`).
  const authority = /^https?:\/\/([^/?#]*)/i.exec(value)?.[1] ?? '';
  if (authority === '') {
    return problem;
  }
  if (authority.includes('@')) {
    return `${field} must not contain a user name or password`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return problem;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname.length === 0) {
    return problem;
  }
  if (url.username !== '' || url.password !== '') {
    return `${field} must not contain a user name or password`;
  }
  return null;
}
