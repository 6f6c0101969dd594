import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks; at least 24 bytes required). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Standard Webhooks signature: base64 HMAC-SHA256 over `id.timestamp.body` with the secret's
 * bytes. Several secrets (during a rotation) give several space-separated `v1,` values, and a
 * receiver accepts the message if any one verifies.
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
      const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
      return `v1,${mac}`;
    })
    .join(' ');
}

/** The default retry schedule after the first attempt, in seconds: 10 attempts over about 3 days. */
export const DEFAULT_RETRY_DELAYS_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

/** Delay before attempt `attempt + 1` (attempts counted from 1), with ±10 % jitter; null when exhausted. */
export function nextDelayMs(
  delaysSeconds: readonly number[],
  attempt: number,
  random: () => number = Math.random,
): number | null {
  const base = delaysSeconds[attempt - 1];
  if (base === undefined) {
    return null;
  }
  const jitter = 1 + (random() * 2 - 1) * 0.1;
  return Math.max(0, Math.round(base * 1000 * jitter));
}
