import Stripe from 'stripe';
import { ConnectorError } from '../../../domain/connectors/card-connector.ts';

/**
 * The Stripe API version every call asks for, and the version of the webhook endpoints Cobro
 * creates (so events come shaped alike). It is the version of Stripe's published description
 * the tests check every request against (vendor/stripe-openapi/; a test keeps the two equal):
 * what Cobro sends is checked against the contract of the version it names. The package speaks
 * newer versions too; moving on means vendoring a newer description and changing this.
 */
export const STRIPE_API_VERSION = '2023-08-16';

export type StripeClientOptions = {
  /** STRIPE_API_URL: scheme, host and port of every call (a forward proxy, a Stripe-compatible server). */
  apiUrl: string;
  /** Per try; a try that runs out is retried like a lost connection. */
  timeoutMs: number;
  /** Tries after the first, by the package, with the same idempotency key. */
  maxNetworkRetries: number;
};

/**
 * A client of the official package for one secret key. The package does the HTTP, its retries
 * (on a lost connection, a timeout, a 409 or a 5xx; with backoff, reusing the request's
 * Idempotency-Key) and the form encoding; nothing of Cobro's goes to Stripe's telemetry.
 */
export function stripeClient(secretKey: string, options: StripeClientOptions): Stripe {
  const url = new URL(options.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    // The package's types name only its newest version; the API takes any released one.
    apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port),
    protocol,
    timeout: options.timeoutMs,
    maxNetworkRetries: options.maxNetworkRetries,
    telemetry: false,
    appInfo: { name: 'Cobro' },
  });
}

/** Key-shaped text in a message from Stripe (which masks keys as sk_test_****1234), replaced: nothing logged may hold one. */
export function withoutKeys(message: string): string {
  return message
    .replace(/\b(sk|rk|pk)_(live|test)_[A-Za-z0-9*]*/g, '[key]')
    .replace(/\bwhsec_[A-Za-z0-9+/=]*/g, '[secret]');
}

/** A failure of the package as the connector port names it. */
export function connectorError(error: unknown): ConnectorError {
  if (error instanceof Stripe.errors.StripeAuthenticationError) {
    return new ConnectorError('AUTH', 'Stripe refused the secret key (invalid, revoked or expired)');
  }
  if (error instanceof Stripe.errors.StripePermissionError) {
    return new ConnectorError('AUTH', `the key may not do this: ${withoutKeys(error.message)}`);
  }
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return new ConnectorError(
      'UNAVAILABLE',
      `Stripe could not be reached or answered an error (${withoutKeys(error.message)})`,
    );
  }
  if (error instanceof Stripe.errors.StripeError) {
    if (error.code === 'resource_missing' || error.statusCode === 404) {
      return new ConnectorError('NOT_FOUND', withoutKeys(error.message));
    }
    return new ConnectorError('REJECTED', `Stripe refused the request: ${withoutKeys(error.message)}`);
  }
  return new ConnectorError(
    'UNAVAILABLE',
    `Stripe call failed: ${withoutKeys((error as Error).message ?? String(error))}`,
  );
}

/** Runs one call of the package, its failures as ConnectorError. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw connectorError(error);
  }
}
