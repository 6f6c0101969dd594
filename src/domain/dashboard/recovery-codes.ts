import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * One-time recovery codes for a user who lost their authenticator: ten codes shown once at
 * enrolment, stored only as digests, each good once (the caller removes the matched digest).
 *
 * Alphabet: Crockford's base32 in lower case (digits and letters without i, l, o, u), so
 * 32 symbols and 5 bits each: 12 symbols carry 60 bits. Reading is forgiving the Crockford
 * way: `o` is taken as `0` and `i`/`l` as `1`, so the look-alikes cannot be mistyped.
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const GROUPS = 3;
const GROUP_LENGTH = 4;
const CODE_LENGTH = GROUPS * GROUP_LENGTH;
const COUNT = 10;
const NORMALIZED = /^[0-9a-hjkmnp-tv-z]{12}$/;

/** Ten distinct codes shaped `xxxx-xxxx-xxxx`, each 60 random bits. Show them once; store `hashRecoveryCode` of each. */
export function generateRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < COUNT) {
    // 256 is a multiple of 32, so `byte & 31` picks every symbol with equal probability.
    const bytes = randomBytes(CODE_LENGTH);
    let symbols = '';
    for (const byte of bytes) {
      symbols += ALPHABET.charAt(byte & 31);
    }
    const groups: string[] = [];
    for (let i = 0; i < CODE_LENGTH; i += GROUP_LENGTH) {
      groups.push(symbols.slice(i, i + GROUP_LENGTH));
    }
    codes.add(groups.join('-'));
  }
  return [...codes];
}

/**
 * The digest stored for a code: normalized (case, dashes, spaces, Crockford look-alikes), then
 * SHA-256 in hex. A fast hash is enough here, unlike for passwords: each code is 60 random bits,
 * so there is no dictionary to try and guessing the preimage of a digest is out of reach.
 */
export function hashRecoveryCode(code: string): string {
  return hash('sha256', normalizeRecoveryCode(code), 'hex');
}

/**
 * The index in `hashes` of the digest matching `input`, or -1. Each stored digest is compared
 * in constant time and all are compared, whatever matches. Input that cannot be a code after
 * normalization is refused without hashing.
 */
export function matchRecoveryCode(input: string, hashes: readonly string[]): number {
  const normalized = normalizeRecoveryCode(input);
  if (!NORMALIZED.test(normalized)) {
    return -1;
  }
  const presented = Buffer.from(hash('sha256', normalized, 'hex'), 'ascii');
  let found = -1;
  for (const [index, stored] of hashes.entries()) {
    const candidate = Buffer.from(stored, 'ascii');
    if (candidate.length === presented.length && timingSafeEqual(candidate, presented) && found === -1) {
      found = index;
    }
  }
  return found;
}

/** Lower case, no white space or dashes (of any Unicode kind after NFKC), Crockford's look-alikes mapped. */
function normalizeRecoveryCode(code: string): string {
  return code
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\-\u2010-\u2015\u2212]/g, '')
    .replace(/o/g, '0')
    .replace(/[il]/g, '1');
}
