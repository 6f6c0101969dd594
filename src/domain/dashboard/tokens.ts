import { createHash, randomBytes } from 'node:crypto';

/** A bearer token for a link or a cookie: 256 random bits, URL-safe. Only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored for a token: its SHA-256 (a token is random, so no salt or slow hash is needed). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token as we issue them: anything else is refused before it reaches the database. */
export function isTokenShaped(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Deliberately simple: one @, something on each side, a dot in the domain, no spaces. */
export function isEmailShaped(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}
