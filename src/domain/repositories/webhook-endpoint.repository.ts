import type { Mode } from '../merchants/merchant.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { WebhookEndpoint } from '../webhooks/webhook.ts';

/** The merchant's webhook endpoints: where events are sent. Deleting one keeps its row, marked deleted. */
export interface WebhookEndpointRepository {
  insert(e: WebhookEndpoint): Promise<void>;
  get(merchantId: string, mode: Mode, id: string): Promise<WebhookEndpoint | undefined>;
  list(merchantId: string, mode: Mode, page: PageRequest): Promise<Page<WebhookEndpoint>>;
  /** The endpoints an event of this merchant and mode goes to: enabled and not deleted. */
  listEnabled(merchantId: string, mode: Mode): Promise<WebhookEndpoint[]>;
  update(e: WebhookEndpoint): Promise<void>;
  /** Marks the endpoint deleted and disabled; false when it does not exist or is deleted already. */
  delete(merchantId: string, mode: Mode, id: string, at: number): Promise<boolean>;
  disable(id: string, reason: string, at: number): Promise<void>;
}
