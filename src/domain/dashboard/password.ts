import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { commonPasswords } from './common-passwords.ts';

/**
 * Dashboard passwords: a length-and-blocklist policy (NIST SP 800-63B style: no composition
 * rules) and scrypt hashes that carry their own parameters, so the cost can be raised later
 * and old hashes still verify (see `needsRehash`).
 *
 * Passwords are NFKC-normalized before counting, comparing and hashing, so the same password
 * typed on systems that compose accents differently is the same password.
 */

/** Why a password is refused; each is a message key for the pages. */
export type PasswordProblem = 'too_short' | 'too_long' | 'common' | 'contains_email';

/** Counted in Unicode code points, not UTF-16 units. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * The first problem with a new password, or null when it is acceptable: shorter than 12 or
 * longer than 256 code points, the e-mail address (contained anywhere) or its local part
 * (exactly), or one of the common passwords, all ignoring case.
 */
export function passwordProblem(password: string, context: { email?: string | null } = {}): PasswordProblem | null {
  const normalized = normalizePassword(password);
  const length = [...normalized].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return 'too_short';
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return 'too_long';
  }
  const lower = normalized.toLowerCase();
  const email = (context.email ?? '').normalize('NFKC').trim().toLowerCase();
  if (email !== '') {
    const at = email.lastIndexOf('@');
    const localPart = at === -1 ? email : email.slice(0, at);
    if (lower.includes(email) || (localPart !== '' && lower.trim() === localPart)) {
      return 'contains_email';
    }
  }
  if (commonPasswords().has(lower.trim())) {
    return 'common';
  }
  return null;
}

/** scrypt cost for new hashes: N = 2^15, r = 8, p = 1 uses 128·N·r = 32 MiB and ~0.1 s per hash. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Refuse stored parameters beyond this: a corrupt or hostile hash string must not make us allocate gigabytes. */
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024;

type ScryptParams = { N: number; r: number; p: number };
type ParsedHash = ScryptParams & { salt: Buffer; key: Buffer };

/** Hashes a password for storage as `scrypt$N$r$p$saltB64$hashB64` (standard base64) with a fresh 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await deriveKey(normalizePassword(password), salt, KEY_BYTES, SCRYPT_PARAMS);
  const { N, r, p } = SCRYPT_PARAMS;
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Whether the password matches the stored hash, in constant time over the derived key.
 * Never throws: a malformed or unsupported stored string answers false.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  try {
    const parsed = parseHash(stored);
    if (!parsed) {
      return false;
    }
    const key = await deriveKey(normalizePassword(password), parsed.salt, parsed.key.length, parsed);
    return timingSafeEqual(key, parsed.key);
  } catch {
    return false;
  }
}

/** True when a stored hash is weaker than (or different from) today's parameters: rehash it at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  return (
    !parsed ||
    parsed.N !== SCRYPT_PARAMS.N ||
    parsed.r !== SCRYPT_PARAMS.r ||
    parsed.p !== SCRYPT_PARAMS.p ||
    parsed.key.length !== KEY_BYTES
  );
}

/**
 * A real hash, with today's parameters, of a random password nobody kept. Sign-in verifies
 * against it when the e-mail is unknown so that answer takes as long as a wrong password;
 * a unit test fails if its parameters drift from `SCRYPT_PARAMS`.
 */
export const DUMMY_PASSWORD_HASH =
  'scrypt$32768$8$1$Yk6uAfOGuo/VUjjCiSmTPQ==$tFJfda5X00oD6mxynA0qwp6LGviGK8AvMr8c6CJ00A0=';

/** Spends the time of one verification and answers false: for sign-in with an unknown e-mail. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(password, DUMMY_PASSWORD_HASH);
  return false;
}

function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

function deriveKey(password: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  const { N, r, p } = params;
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128·N·r (Node's default, 32 MiB, is exactly today's need): leave twice that.
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 2 * 128 * N * r }, (error, key) => {
      if (error) {
        reject(error);
      } else {
        resolve(key);
      }
    });
  });
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function parseHash(stored: string): ParsedHash | null {
  if (typeof stored !== 'string') {
    return null;
  }
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    return null;
  }
  const [, nText = '', rText = '', pText = '', saltText = '', keyText = ''] = parts;
  const N = parseSmallInt(nText);
  const r = parseSmallInt(rText);
  const p = parseSmallInt(pText);
  if (N === null || r === null || p === null) {
    return null;
  }
  const powerOfTwo = N >= 2 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N < 2 ** 10 || r < 1 || r > 32 || p < 1 || p > 16 || 128 * N * r > MAX_SCRYPT_MEMORY) {
    return null;
  }
  const salt = decodeBase64(saltText);
  const key = decodeBase64(keyText);
  if (!salt || !key || salt.length < 16 || salt.length > 64 || key.length < 16 || key.length > 64) {
    return null;
  }
  return { N, r, p, salt, key };
}

function parseSmallInt(text: string): number | null {
  if (!/^[1-9]\d{0,8}$/.test(text)) {
    return null;
  }
  return Number(text);
}

/** Canonical standard base64 only (what `hashPassword` writes): Buffer's decoder alone skips junk silently. */
function decodeBase64(text: string): Buffer | null {
  if (!BASE64.test(text)) {
    return null;
  }
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}
