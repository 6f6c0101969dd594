import type { Mode } from '../merchants/merchant.ts';
import { AppError } from '../shared/errors.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { CardConnector } from './card-connector.ts';
import type { Connection, ConnectorProvider, PixConnectionSettings } from './connection.ts';
import { CARD_PROVIDERS } from './connection.ts';
import type { PixAccess, PixClientCertificate, PixConnector, PixProfile } from './pix-connector.ts';

/** The secrets of an API Pix connection, sealed together. */
export type PixSecrets = { clientSecret: string; certificate: PixClientCertificate };

/** An API Pix connection read for a call to the PSP: its connector and its secrets opened. */
export type OpenedPixConnection = { connection: Connection; connector: PixConnector; access: PixAccess };

/**
 * The connectors this server was built with, and a merchant's connections opened for a call to
 * the processor: what the payment services (card intents, PIX charges, processor events) and
 * method availability need of the connections, and nothing that changes them.
 */
export class ConnectorAccess {
  private readonly connectors: Partial<Record<ConnectorProvider, CardConnector>>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly box: SecretBox,
    connectors: readonly CardConnector[],
    private readonly pixConnector: PixConnector | null = null,
  ) {
    this.connectors = Object.fromEntries(connectors.map((c) => [c.provider, c]));
  }

  /** The card connector of `provider`; SERVICE_UNAVAILABLE on a server built without it. */
  connector(provider: ConnectorProvider): CardConnector {
    const connector = this.connectors[provider];
    if (!connector || provider === 'pix') {
      throw new AppError('SERVICE_UNAVAILABLE', [`the ${provider} connector is not available on this server`]);
    }
    return connector;
  }

  /** The API Pix connector; SERVICE_UNAVAILABLE on a server built without it. */
  pix(): PixConnector {
    if (!this.pixConnector) {
      throw new AppError('SERVICE_UNAVAILABLE', ['the API Pix connector is not available on this server']);
    }
    return this.pixConnector;
  }

  /** The merchant's API Pix connection in `mode` with its secrets opened, for a call to the PSP; null without one. */
  async pixAccess(merchantId: string, mode: Mode): Promise<OpenedPixConnection | null> {
    const connection = await this.uow.read.connections.getConnection(merchantId, mode, 'pix');
    return connection ? this.pixAccessOf(connection) : null;
  }

  /** The same for a connection already read. */
  pixAccessOf(connection: Connection): OpenedPixConnection {
    if (!connection.pix) {
      throw new AppError('CONFLICT', [`connection ${connection.provider}:${connection.mode} is not an API Pix one`]);
    }
    const secrets = JSON.parse(this.box.open(connection.secretKeySealed)) as PixSecrets;
    return { connection, connector: this.pix(), access: accessOf(connection.pix, secrets) };
  }

  /** Whether a connector of the merchant settles `type` in `mode` (method availability asks this). */
  async isConnected(type: 'CARD' | 'PIX', merchantId: string, mode: Mode): Promise<boolean> {
    return type === 'CARD'
      ? this.hasCardConnection(merchantId, mode)
      : this.uow.read.connections.hasConnection(merchantId, mode, ['pix']);
  }

  /** Whether the merchant has a card processor connected in `mode`: that mode's CARD methods are then served by it. */
  async hasCardConnection(merchantId: string, mode: Mode): Promise<boolean> {
    return this.uow.read.connections.hasConnection(merchantId, mode, CARD_PROVIDERS);
  }

  /** The merchant's card connection in `mode` with its secret key opened, for a call to the processor; null without one. */
  async cardAccess(
    merchantId: string,
    mode: Mode,
  ): Promise<{ connection: Connection; connector: CardConnector; secretKey: string } | null> {
    for (const provider of CARD_PROVIDERS) {
      const connection = await this.uow.read.connections.getConnection(merchantId, mode, provider);
      if (connection) {
        return {
          connection,
          connector: this.connector(provider),
          secretKey: this.box.open(connection.secretKeySealed),
        };
      }
    }
    return null;
  }

  /** The connection an event URL names, with its webhook secret opened; null for a URL no connection has. */
  async byWebhookId(webhookId: string): Promise<{ connection: Connection; webhookSecret: string } | null> {
    const connection = await this.uow.read.connections.getConnectionByWebhookId(webhookId);
    return connection ? { connection, webhookSecret: this.box.open(connection.webhookSecretSealed) } : null;
  }

  /** A card connection's stored secret key in clear, or null when this server's secrets key cannot open it. */
  openSecretKey(connection: Connection): string | null {
    try {
      return this.box.open(connection.secretKeySealed);
    } catch {
      return null;
    }
  }
}

/** What a call to the PSP needs, from a connection's settings and its opened secrets. */
export function accessOf(settings: PixConnectionSettings, secrets: PixSecrets): PixAccess {
  return {
    baseUrl: settings.baseUrl,
    tokenUrl: settings.tokenUrl,
    clientId: settings.clientId,
    clientSecret: secrets.clientSecret,
    certificate: secrets.certificate,
    ca: settings.ca,
    profile: settings.profile as PixProfile,
  };
}
