/**
 * @cobro/sdk: a typed client of the Cobro API (openapi-fetch, with credentials, idempotency keys
 * and retries) and the verification of its webhooks (Standard Webhooks). The types are
 * generated from the server's OpenAPI document (src/schema.ts).
 */
export type { CobroClient, CobroClientOptions, FetchLike } from './client.js';
export { createCobroClient, DEFAULT_MAX_RETRIES } from './client.js';
export type { components, operations, paths, webhooks } from './schema.js';
export type { CobroEvent, CobroEventOf, CobroEventType, WebhookHeaders } from './webhooks.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks.js';

import type { components } from './schema.js';

/** A named schema of the API: `Schema<'CheckoutPreference'>`, `Schema<'PaymentOrder'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
/** The body of every error answer: `{ messages: string[], code }`. */
export type ErrorBody = components['schemas']['ErrorBody'];
