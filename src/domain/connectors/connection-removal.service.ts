import type { Actor } from '../dashboard/audit.ts';
import { audit } from '../dashboard/audit.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { ConnectorError } from './card-connector.ts';
import type { Connection, ConnectionView, ConnectorProvider } from './connection.ts';
import { CONNECTOR_PROVIDERS, viewOf } from './connection.ts';
import type { ConnectorAccess } from './connector-access.ts';

export type RemoveResult = {
  removed: ConnectionView;
  /** Whether the webhook endpoint Cobro created is gone at the processor (true when there was none). */
  endpointDeleted: boolean;
  /** Why it could not be deleted, for the merchant to delete it by hand; null when it was. */
  warning: string | null;
};

/** Removing a merchant's connection: what Cobro made at the processor first, then the connection, audited. */
export class ConnectionRemovalService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly access: ConnectorAccess,
    private readonly publicUrl: string,
  ) {}

  /**
   * Removes the merchant's connection of `provider` in `mode`, and the webhook endpoint Cobro
   * created for it. An endpoint the processor no longer accepts the key for is reported, not a
   * reason to keep the connection: the merchant is told to delete it by hand.
   */
  async remove(merchantId: string, provider: string, mode: Mode, actor: Actor): Promise<RemoveResult> {
    const known = CONNECTOR_PROVIDERS.find((p) => p === provider);
    const connection = known ? await this.uow.read.connections.getConnection(merchantId, mode, known) : undefined;
    if (!known || !connection) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} has no ${provider} connection in ${mode} mode`]);
    }
    let endpointDeleted = true;
    let warning: string | null = null;
    if (connection.webhookEndpointId !== null) {
      try {
        await this.deleteEndpoint(known, connection, connection.webhookEndpointId);
      } catch (error) {
        if (!(error instanceof ConnectorError)) {
          throw error;
        }
        endpointDeleted = false;
        warning =
          known === 'pix'
            ? `the webhook of the PIX key ${connection.webhookEndpointId} could not be removed at the PSP (${error.message}); remove it in the PSP's portal`
            : `the webhook endpoint ${connection.webhookEndpointId} could not be deleted at ${provider} (${error.message}); delete it in the ${provider} dashboard`;
      }
    }
    const now = this.clock.now().getTime();
    await this.uow.transaction(async (repos) => {
      if (!(await repos.connections.deleteConnection(connection.id))) {
        throw new AppError('NOT_FOUND', [`merchant ${merchantId} has no ${provider} connection in ${mode} mode`]);
      }
      await audit(
        repos,
        actor,
        {
          merchantId,
          action: 'payment_connection.remove',
          objectType: 'payment_connection',
          objectId: `${provider}:${mode}`,
          detail: {
            provider,
            mode,
            account_id: connection.accountId,
            webhook_endpoint_id: connection.webhookEndpointId,
            webhook_endpoint_deleted: endpointDeleted,
          },
        },
        now,
      );
    });
    return { removed: viewOf(connection, this.publicUrl), endpointDeleted, warning };
  }

  /** The webhook Cobro made at the processor: an API Pix key's webhook, or a card processor's endpoint. */
  private async deleteEndpoint(provider: ConnectorProvider, connection: Connection, endpointId: string): Promise<void> {
    if (provider === 'pix') {
      const { connector, access } = this.access.pixAccessOf(connection);
      await connector.removeWebhook(access, endpointId);
      return;
    }
    await this.access.connector(provider).deleteWebhookEndpoint(this.box.open(connection.secretKeySealed), endpointId);
  }
}
