import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 22;

// Random bytes are drawn from the CSPRNG a block at a time and handed out once each: a
// system call per id was a visible share of creating an object. Every byte is used at most
// once, so ids stay as unpredictable as bytes read one by one.
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

function nextRandomByte(): number {
  if (poolOffset === POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const byte = POOL[poolOffset] as number;
  POOL[poolOffset++] = 0;
  return byte;
}

/**
 * Random text over [A-Za-z0-9] from a CSPRNG, by rejection sampling so every character is
 * uniform (62 does not divide 256). 22 characters carry log2(62^22) ≈ 131 bits.
 */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = nextRandomByte();
    // 248 = 4 * 62: bytes at or above it would bias the first characters.
    if (b < 248) {
      out += ALPHABET[b % 62];
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
