import type { Mode } from '../merchants/merchant.ts';
import type { PixProfile } from './pix-connector.ts';

/** The processors a merchant can connect its own account of: Stripe for cards, a PSP's API Pix for PIX. */
export type ConnectorProvider = 'stripe' | 'pix';

export const CONNECTOR_PROVIDERS: readonly ConnectorProvider[] = ['stripe', 'pix'];

/** The providers that take cards (their connection serves that mode's CARD methods). */
export const CARD_PROVIDERS: readonly ConnectorProvider[] = ['stripe'];

/** What an API Pix connection keeps in clear (its secrets are sealed apart). */
export type PixConnectionSettings = {
  /** The API root, resolved with the profile's path. */
  baseUrl: string;
  tokenUrl: string;
  profile: PixProfile;
  clientId: string;
  /** The merchant's key (chave) charges are made to, and whose webhook Cobro registered. */
  pixKey: string;
  /** Extra trust anchors (PEM) for the PSP's server certificate; null: the system's. */
  ca: string | null;
};

/**
 * A merchant's own processor account, for one mode. Its secrets are kept sealed with the secrets
 * key (SecretBox) and are opened only to call the processor or check an event's signature.
 */
export type Connection = {
  id: string;
  merchantId: string;
  mode: Mode;
  provider: ConnectorProvider;
  /** The processor's id of the account (Stripe: `acct_…`) and its display name, as the keys' check read them. */
  accountId: string;
  accountName: string | null;
  /** Public by design (the payer's browser gets it); kept in clear. */
  publishableKey: string;
  secretKeySealed: string;
  webhookSecretSealed: string;
  /** The last part of the webhook URL: random, one per connection (so one per merchant and mode). */
  webhookId: string;
  /** The endpoint Cobro created at the processor; null when the merchant created it and gave its secret. */
  webhookEndpointId: string | null;
  createdAt: number;
  updatedAt: number;
  /** When the last verified event arrived; null before the first. */
  lastEventAt: number | null;
  /** The last problem met with this connection (an event that could not be applied), for the merchant. */
  lastError: string | null;
  /** An API Pix connection's settings; null for Stripe. */
  pix: PixConnectionSettings | null;
};

/** A connection as it may be shown: no secret, not even masked. */
export type ConnectionView = Omit<Connection, 'id' | 'secretKeySealed' | 'webhookSecretSealed' | 'webhookId'> & {
  webhookUrl: string;
};

/**
 * A connection as the dashboard shows it to its owners and admins: the view, and its secret key
 * masked, so the merchant can tell which key is in use; null when this server's secrets key can
 * no longer open it.
 */
export type ShownConnection = ConnectionView & { secretKeyMasked: string | null };

/**
 * A secret as a page may show it: its kind and mode (`sk_test_`) and its last four characters,
 * `sk_test_…4242`. A short one shows no character of its own.
 */
export function maskSecret(secret: string): string {
  const prefix = /^[a-z]{2,6}_(?:live|test)_/.exec(secret)?.[0] ?? '';
  return secret.length - prefix.length >= 16 ? `${prefix}…${secret.slice(-4)}` : `${prefix}…`;
}

/** Where the processor sends a connection's events: under PUBLIC_URL, unique to the connection. */
export function webhookUrlFor(publicUrl: string, provider: ConnectorProvider, webhookId: string): string {
  return `${publicUrl}/connectors/${provider}/webhooks/${webhookId}`;
}

export function viewOf(connection: Connection, publicUrl: string): ConnectionView {
  return {
    merchantId: connection.merchantId,
    mode: connection.mode,
    provider: connection.provider,
    accountId: connection.accountId,
    accountName: connection.accountName,
    publishableKey: connection.publishableKey,
    webhookUrl: webhookUrlFor(publicUrl, connection.provider, connection.webhookId),
    webhookEndpointId: connection.webhookEndpointId,
    createdAt: connection.createdAt,
    updatedAt: connection.updatedAt,
    lastEventAt: connection.lastEventAt,
    lastError: connection.lastError,
    pix: connection.pix,
  };
}

/** One processor event as received: stored by id, so the same event twice has one effect. */
export type ConnectorEventRecord = {
  provider: ConnectorProvider;
  eventId: string;
  connectionId: string;
  merchantId: string;
  mode: Mode;
  type: string;
  /** The object the event is about (Stripe: the PaymentIntent's id), when it names one. */
  objectId: string | null;
  /** What Cobro did with it (see ConnectorEventService). */
  outcome: string;
  receivedAt: number;
};
