import type { IntentView } from './card-connector.ts';
import type { ConnectorProvider } from './connection.ts';
import { CARD_PROVIDERS } from './connection.ts';

/** A card kept at a processor for a subscription: its customer and the card (payment method) on it. */
export type SavedCard = { provider: ConnectorProvider; customerId: string; paymentMethodId: string };

/** How a subscription records a card kept at a processor: `<provider>:<customer>:<payment method>`. */
export function savedCardToken(provider: ConnectorProvider, intent: IntentView): string | null {
  return intent.customerId && intent.paymentMethodId
    ? `${provider}:${intent.customerId}:${intent.paymentMethodId}`
    : null;
}

export function parseSavedCard(token: string | null): SavedCard | null {
  const parts = token?.split(':') ?? [];
  const [provider, customerId, paymentMethodId] = parts;
  if (parts.length !== 3 || !customerId || !paymentMethodId) {
    return null;
  }
  const known = CARD_PROVIDERS.find((p) => p === provider);
  return known ? { provider: known, customerId, paymentMethodId } : null;
}
