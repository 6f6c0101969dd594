import type { SealedSecrets } from '../webhooks/webhook.ts';

/** Sealed signing secrets by owner: one per endpoint, and one per merchant and mode for checkouts' own webhook URLs. */
export interface WebhookSecretRepository {
  get(owner: string): Promise<SealedSecrets | undefined>;
  put(owner: string, secrets: SealedSecrets, at: number): Promise<void>;
  /** Stores `secrets` unless the owner has some already (two first uses at once keep one secret). */
  insertIfAbsent(owner: string, secrets: SealedSecrets, at: number): Promise<void>;
}
