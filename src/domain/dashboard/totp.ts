import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { base32nopad } from '@scure/base';

/**
 * Time-based one-time passwords for the dashboard's second factor: RFC 6238 TOTP over RFC 4226
 * HOTP with HMAC-SHA1, 6 digits and a 30-second step, the profile every authenticator app
 * supports. Hand-written on node:crypto (about thirty lines) rather than a library: the
 * algorithm is small, fixed and pinned by the RFCs' test vectors in the unit tests.
 */

/** Seconds per time step (RFC 6238 X). */
export const TOTP_STEP_SECONDS = 30;
/** Digits per code. */
export const TOTP_DIGITS = 6;

/** The outcome of `verifyTotp`; on success the caller stores `step` as the new `lastUsedStep`. */
export type TotpCheck = { ok: true; step: number } | { ok: false };

/** A new shared secret: 20 random bytes (160 bits, RFC 4226's recommended length) in base32 without padding. */
export function generateTotpSecret(): string {
  return base32nopad.encode(randomBytes(20));
}

/**
 * RFC 4226 HOTP: HMAC-SHA1 over the 8-byte big-endian counter, dynamic truncation, the low
 * `digits` decimal digits, zero-padded.
 */
export function hotpCode(key: Uint8Array, counter: number, digits: number = TOTP_DIGITS): string {
  if (!Number.isSafeInteger(counter) || counter < 0) {
    throw new RangeError('HOTP counter must be a non-negative safe integer');
  }
  if (!Number.isInteger(digits) || digits < 6 || digits > 10) {
    throw new RangeError('HOTP digits must be an integer from 6 to 10');
  }
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac.readUInt8(mac.length - 1) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The RFC 6238 time step containing `atMs` (Unix epoch milliseconds, T0 = 0). */
export function totpStep(atMs: number, step: number = TOTP_STEP_SECONDS): number {
  return Math.floor(atMs / (step * 1000));
}

/**
 * The TOTP code for the secret at `atMs`. Throws on a secret that is not base32, which only a
 * corrupted stored secret could be (we generate them all).
 */
export function totpCode(
  secretBase32: string,
  atMs: number,
  step: number = TOTP_STEP_SECONDS,
  digits: number = TOTP_DIGITS,
): string {
  return hotpCode(decodeSecret(secretBase32), totpStep(atMs, step), digits);
}

/**
 * Checks a 6-digit code against the steps within `window` of `atMs` (default ±1, for clock
 * drift and typing time). A step at or below `lastUsedStep` is refused, so a code, or an older
 * one, cannot be replayed once a sign-in used it: the caller stores the returned `step`
 * (compare-and-set, so two racing requests cannot both use it). Every candidate is compared in
 * constant time, and all of them are computed, whatever matches.
 */
export function verifyTotp(
  secretBase32: string,
  code: string,
  atMs: number,
  options: { window?: number; lastUsedStep?: number } = {},
): TotpCheck {
  const window = options.window ?? 1;
  if (!Number.isInteger(window) || window < 0 || window > 10) {
    throw new RangeError('TOTP window must be an integer from 0 to 10');
  }
  const key = decodeSecret(secretBase32);
  if (!/^\d{6}$/.test(code)) {
    return { ok: false };
  }
  const presented = Buffer.from(code, 'ascii');
  const current = totpStep(atMs);
  let matched: number | null = null;
  for (let step = current - window; step <= current + window; step++) {
    if (step < 0) {
      continue;
    }
    const equal = timingSafeEqual(presented, Buffer.from(hotpCode(key, step), 'ascii'));
    const fresh = options.lastUsedStep === undefined || step > options.lastUsedStep;
    if (equal && fresh && matched === null) {
      matched = step;
    }
  }
  return matched === null ? { ok: false } : { ok: true, step: matched };
}

/**
 * The `otpauth://` URI an authenticator app reads from a QR code (Google Authenticator's Key
 * Uri Format): label `Issuer:account`, the issuer repeated as a parameter (apps prefer the
 * parameter), secret in unpadded base32, and the defaults spelled out. Throws when the issuer
 * or account name contains a colon, which the format forbids.
 */
export function otpauthUri(input: { secret: string; accountName: string; issuer?: string }): string {
  const issuer = input.issuer ?? 'Cobro';
  if (issuer.includes(':') || input.accountName.includes(':')) {
    throw new RangeError('otpauth issuer and account name must not contain a colon');
  }
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(input.accountName)}`;
  const params = [
    `secret=${encodeURIComponent(input.secret)}`,
    `issuer=${encodeURIComponent(issuer)}`,
    'algorithm=SHA1',
    `digits=${TOTP_DIGITS}`,
    `period=${TOTP_STEP_SECONDS}`,
  ];
  return `otpauth://totp/${label}?${params.join('&')}`;
}

/** Base32 (RFC 4648) to bytes; tolerates lower case, spaces and padding, as people copy secrets by hand. */
function decodeSecret(secretBase32: string): Uint8Array {
  const normalized = secretBase32.replace(/[\s=]/g, '').toUpperCase();
  if (normalized.length === 0) {
    throw new TypeError('TOTP secret is empty');
  }
  try {
    return base32nopad.decode(normalized);
  } catch {
    throw new TypeError('TOTP secret is not valid base32');
  }
}
