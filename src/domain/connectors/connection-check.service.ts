import type { Mode } from '../merchants/merchant.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { ConnectorError } from './card-connector.ts';
import type { Connection, ConnectorProvider } from './connection.ts';
import { CARD_PROVIDERS, webhookUrlFor } from './connection.ts';
import type { ConnectorAccess, OpenedPixConnection } from './connector-access.ts';

/**
 * What testing a connection found: the processor accepts the stored credentials for the
 * connected account (an API Pix connection: its PIX key), or why not (the connector's kinds of
 * failure, the key now answering for another account, the PSP notifying another URL for the PIX
 * key, or credentials this server's secrets key cannot open).
 */
export type ConnectionCheck =
  | { ok: true; accountId: string; accountName: string | null }
  | { ok: false; kind: ConnectorError['kind'] | 'OTHER_ACCOUNT' | 'WEBHOOK' | 'UNREADABLE'; message: string };

const UNREADABLE: ConnectionCheck = {
  ok: false,
  kind: 'UNREADABLE',
  message: "this server's secrets key cannot open the stored credentials (was SECRETS_KEY changed?); connect again",
};

/**
 * Testing a connection with the calls connecting made, with what is stored: whether the
 * processor still accepts it. Changes nothing.
 */
export class ConnectionCheckService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly access: ConnectorAccess,
    private readonly publicUrl: string,
  ) {}

  /**
   * A card processor: the account check with the stored key, for the same account. API Pix: a
   * fresh token with the stored credentials and certificate, then the webhook the PSP has for
   * the PIX key (`GET /webhook/{chave}`), which must still be this connection's URL.
   */
  async check(merchantId: string, provider: ConnectorProvider, mode: Mode): Promise<ConnectionCheck> {
    const connection = await this.uow.read.connections.getConnection(merchantId, mode, provider);
    if (!connection) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} has no ${provider} connection in ${mode} mode`]);
    }
    try {
      return CARD_PROVIDERS.includes(provider) ? await this.checkCard(connection) : await this.checkPix(connection);
    } catch (error) {
      if (error instanceof ConnectorError) {
        return { ok: false, kind: error.kind, message: error.message };
      }
      throw error;
    }
  }

  private async checkCard(connection: Connection): Promise<ConnectionCheck> {
    const key = this.access.openSecretKey(connection);
    if (key === null) {
      return UNREADABLE;
    }
    const account = await this.access.connector(connection.provider).account(key);
    if (account.id !== connection.accountId) {
      return {
        ok: false,
        kind: 'OTHER_ACCOUNT',
        message: `the key now answers for account ${account.id}, not ${connection.accountId}`,
      };
    }
    return { ok: true, accountId: account.id, accountName: account.name };
  }

  private async checkPix(connection: Connection): Promise<ConnectionCheck> {
    let opened: OpenedPixConnection;
    try {
      opened = this.access.pixAccessOf(connection);
    } catch (error) {
      if (error instanceof AppError) {
        throw error;
      }
      return UNREADABLE;
    }
    const { connector, access } = opened;
    const pixKey = connection.pix?.pixKey ?? connection.accountId;
    await connector.checkToken(access);
    const registered = await connector.webhookOf(access, pixKey);
    const ours = webhookUrlFor(this.publicUrl, 'pix', connection.webhookId);
    if (registered !== ours) {
      return {
        ok: false,
        kind: 'WEBHOOK',
        message:
          registered === null
            ? `the PSP has no webhook for the PIX key ${pixKey}, so its notifications do not reach Cobro; disconnect and connect again`
            : `the PSP notifies ${registered} for the PIX key ${pixKey}, not Cobro's ${ours}; disconnect and connect again`,
      };
    }
    return { ok: true, accountId: pixKey, accountName: connection.accountName };
  }
}
