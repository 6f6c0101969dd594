import { hash, timingSafeEqual } from 'node:crypto';
import { randomAlphanumeric } from '../shared/ids.ts';
import type { Mode } from './merchant.ts';

/**
 * Key pairs look like Stripe's so a leaked one is recognisable: `ck_test_…` identifies,
 * `cs_test_…` proves. The secret carries 40 random characters (~238 bits); with that much
 * entropy a single SHA-256 is the right digest (no password stretching needed).
 */
export function newKeyPair(mode: Mode): { apiKey: string; apiSecret: string } {
  return { apiKey: `ck_${mode}_${randomAlphanumeric(24)}`, apiSecret: `cs_${mode}_${randomAlphanumeric(40)}` };
}

export function hashSecret(secret: string): Buffer {
  // The one-shot form: no Hash object per request (every authenticated request digests its secret).
  return hash('sha256', secret, 'buffer');
}

/** Constant-time comparison of the presented secret's digest with the stored digest (equal lengths by construction). */
export function secretMatches(presented: string, storedHash: Buffer): boolean {
  const digest = hashSecret(presented);
  return digest.length === storedHash.length && timingSafeEqual(digest, storedHash);
}

/** The mode a key claims by its prefix; used to refuse mismatched bootstrap pairs early. */
export function modeOfKey(apiKey: string): Mode | null {
  if (apiKey.startsWith('ck_test_')) {
    return 'test';
  }
  if (apiKey.startsWith('ck_live_')) {
    return 'live';
  }
  return null;
}

/**
 * A key's reference in the dashboard's addresses: a digest of the key, so the key itself never
 * lands in URLs, history or access logs.
 */
export function keyRef(apiKey: string): string {
  return hash('sha256', apiKey, 'base64url').slice(0, 22);
}
