import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 22;

/**
 * Random text over [A-Za-z0-9] from a CSPRNG, by rejection sampling so every character is
 * uniform (62 does not divide 256). 22 characters carry log2(62^22) ≈ 131 bits.
 */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = randomBytes(Math.ceil((length - out.length) * 1.3) + 4);
    for (const b of bytes) {
      // 248 = 4 * 62: bytes at or above it would bias the first characters.
      if (b < 248) {
        out += ALPHABET[b % 62];
        if (out.length === length) {
          break;
        }
      }
    }
  }
  return out;
}

/** The one generator of public object ids: unguessable, never sequential (they appear in checkout URLs). */
export function newId(): string {
  return randomAlphanumeric(ID_LENGTH);
}

/** Shape check for ids read from paths, so malformed ids answer 404 without a query. */
export function isWellFormedId(id: string): boolean {
  return /^[A-Za-z0-9]{22}$/.test(id);
}
