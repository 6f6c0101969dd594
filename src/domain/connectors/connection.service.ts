import type { Actor } from '../dashboard/audit.ts';
import { audit } from '../dashboard/audit.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { newId, randomAlphanumeric } from '../shared/ids.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { CardConnector } from './card-connector.ts';
import { ConnectorError } from './card-connector.ts';
import type {
  Connection,
  ConnectionView,
  ConnectorProvider,
  PixConnectionSettings,
  ShownConnection,
} from './connection.ts';
import { CARD_PROVIDERS, CONNECTOR_PROVIDERS, maskSecret, viewOf, webhookUrlFor } from './connection.ts';
import type { PixAccess, PixClientCertificate, PixConnector, PixProfile } from './pix-connector.ts';
import { PIX_PROFILES } from './pix-connector.ts';

export type ConnectInput = {
  secretKey: string;
  publishableKey: string;
  /** Given when the merchant created the webhook endpoint itself: Cobro then creates none. */
  webhookSecret?: string | null;
};

/** What `connect pix` is given (INTERFACE §11.2): the PSP, the credentials, the certificate, the key. */
export type PixConnectInput = {
  mode: Mode;
  baseUrl: string;
  tokenUrl?: string | null;
  clientId: string;
  clientSecret: string;
  certificate: PixClientCertificate;
  ca?: string | null;
  pixKey: string;
  profile?: string | null;
};

/** The secrets of an API Pix connection, sealed together. */
type PixSecrets = { clientSecret: string; certificate: PixClientCertificate };

export type RemoveResult = {
  removed: ConnectionView;
  /** Whether the webhook endpoint Cobro created is gone at the processor (true when there was none). */
  endpointDeleted: boolean;
  /** Why it could not be deleted, for the merchant to delete it by hand; null when it was. */
  warning: string | null;
};

/**
 * What testing a connection found: the processor accepts the stored key for the connected
 * account, or why not (the connector's kinds of failure, the key now answering for another
 * account, or a key this server's secrets key cannot open).
 */
export type ConnectionCheck =
  | { ok: true; accountId: string; accountName: string | null }
  | { ok: false; kind: ConnectorError['kind'] | 'OTHER_ACCOUNT' | 'UNREADABLE'; message: string };

/**
 * A processor's failure as the API says it: a refused key is the caller's input, an outage is
 * ours to retry. Anything else is not the processor's answer and is given back as it was.
 */
export function connectorFailure(error: unknown, what: string): unknown {
  if (error instanceof ConnectorError) {
    switch (error.kind) {
      case 'AUTH':
        return new AppError('WRONG_INPUT', [`secret key: ${error.message}`]);
      case 'UNAVAILABLE':
        return new AppError('SERVICE_UNAVAILABLE', [`${what}: ${error.message}; try again shortly`]);
      case 'REJECTED':
      case 'NOT_FOUND':
        return new AppError('WRONG_INPUT', [`${what}: ${error.message}`]);
    }
  }
  return error;
}

/**
 * Merchants' processor connections (INTERFACE §11): connecting checks the keys with one real
 * call and creates the webhook endpoint before anything is stored, so a failed check stores
 * nothing; secrets are sealed and never given back; every change is in the audit log.
 */
export class ConnectionService {
  private readonly connectors: Record<ConnectorProvider, CardConnector>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    connectors: readonly CardConnector[],
    private readonly publicUrl: string,
    private readonly pixConnector: PixConnector | null = null,
  ) {
    this.connectors = Object.fromEntries(connectors.map((c) => [c.provider, c])) as Record<
      ConnectorProvider,
      CardConnector
    >;
  }

  connector(provider: ConnectorProvider): CardConnector {
    const connector = this.connectors[provider];
    if (!connector || provider === 'pix') {
      throw new AppError('SERVICE_UNAVAILABLE', [`the ${provider} connector is not available on this server`]);
    }
    return connector;
  }

  async connect(
    merchantId: string,
    provider: ConnectorProvider,
    input: ConnectInput,
    actor: Actor,
  ): Promise<ConnectionView> {
    const connector = this.connector(provider);
    if (!(await this.uow.read.merchants.get(merchantId))) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
    }
    const keys = connector.keysMode(input.secretKey, input.publishableKey);
    if (!keys.ok) {
      throw new AppError('WRONG_INPUT', [keys.message]);
    }
    const givenSecret = input.webhookSecret ?? null;
    if (givenSecret !== null && !connector.isWebhookSecret(givenSecret)) {
      throw new AppError('WRONG_INPUT', [`webhook secret: not a ${provider} webhook signing secret (whsec_…)`]);
    }
    const { mode } = keys;
    if (await this.uow.read.connections.getConnection(merchantId, mode, provider)) {
      throw conflict(provider, mode);
    }

    // 1. The keys, checked with one real call: a refused key stores nothing.
    let account: { id: string; name: string | null };
    try {
      account = await connector.account(input.secretKey);
    } catch (error) {
      throw connectorFailure(error, `${provider} account check`);
    }
    // 2. The endpoint the processor will send events to, unless the merchant made its own.
    const id = newId();
    const webhookId = randomAlphanumeric(24);
    const webhookUrl = webhookUrlFor(this.publicUrl, provider, webhookId);
    let endpoint: { id: string; secret: string } | null = null;
    if (givenSecret === null) {
      try {
        endpoint = await connector.createWebhookEndpoint(input.secretKey, {
          url: webhookUrl,
          idempotencyKey: `cobro-we-${id}`,
          merchantId,
        });
      } catch (error) {
        throw connectorFailure(error, `${provider} webhook endpoint`);
      }
    }
    // 3. Stored sealed, with its audit entry, in one transaction.
    const now = this.clock.now().getTime();
    const connection: Connection = {
      id,
      merchantId,
      mode,
      provider,
      accountId: account.id,
      accountName: account.name,
      publishableKey: input.publishableKey,
      secretKeySealed: this.box.seal(input.secretKey),
      webhookSecretSealed: this.box.seal(endpoint?.secret ?? givenSecret ?? ''),
      webhookId,
      webhookEndpointId: endpoint?.id ?? null,
      createdAt: now,
      updatedAt: now,
      lastEventAt: null,
      lastError: null,
      pix: null,
    };
    try {
      await this.uow.transaction(async (repos) => {
        if (!(await repos.connections.insertConnection(connection))) {
          throw conflict(provider, mode);
        }
        await audit(
          repos,
          actor,
          {
            merchantId,
            action: 'payment_connection.create',
            objectType: 'payment_connection',
            objectId: `${provider}:${mode}`,
            detail: { provider, mode, account_id: account.id, webhook_endpoint_id: endpoint?.id ?? null },
          },
          now,
        );
      });
    } catch (error) {
      // Nothing was stored: the endpoint just made would only send events nobody can verify.
      if (endpoint) {
        await connector.deleteWebhookEndpoint(input.secretKey, endpoint.id).catch(() => undefined);
      }
      throw error;
    }
    return viewOf(connection, this.publicUrl);
  }

  /** The API Pix connector; SERVICE_UNAVAILABLE on a server built without it. */
  pix(): PixConnector {
    if (!this.pixConnector) {
      throw new AppError('SERVICE_UNAVAILABLE', ['the API Pix connector is not available on this server']);
    }
    return this.pixConnector;
  }

  /**
   * Connects the merchant's PSP through its API Pix (INTERFACE §11.2): the credentials checked
   * with a real token request, then the webhook registered for the PIX key at a URL of Cobro's,
   * unique to this merchant and mode; only then is anything stored (secrets sealed) and audited.
   * A refused credential or certificate, or a refused webhook, stores nothing.
   */
  async connectPix(merchantId: string, input: PixConnectInput, actor: Actor): Promise<ConnectionView> {
    const connector = this.pix();
    if (!(await this.uow.read.merchants.get(merchantId))) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
    }
    const messages: string[] = [];
    const profile = PIX_PROFILES.find((p) => p === (input.profile ?? 'bcb'));
    if (!profile) {
      messages.push(`profile: must be one of ${PIX_PROFILES.join(', ')}`);
    }
    if (input.mode !== 'live' && input.mode !== 'test') {
      messages.push('mode: must be live or test');
    }
    const clientId = input.clientId.trim();
    if (clientId === '' || clientId.length > 255) {
      messages.push('client id: required (at most 255 characters)');
    }
    if (input.clientSecret === '' || input.clientSecret.length > 1024) {
      messages.push('client secret: required (at most 1024 characters)');
    }
    const pixKey = input.pixKey.trim();
    if (pixKey === '' || pixKey.length > 77) {
      messages.push('pix key: required, at most 77 characters (the key registered at the PSP)');
    }
    const endpoints = connector.endpoints(profile ?? 'bcb', input.baseUrl, input.tokenUrl ?? null);
    if (!endpoints.ok) {
      messages.push(endpoints.message);
    }
    if (messages.length > 0 || !profile || !endpoints.ok) {
      throw new AppError('WRONG_INPUT', messages);
    }
    const { mode } = input;
    if (await this.uow.read.connections.getConnection(merchantId, mode, 'pix')) {
      throw conflict('pix', mode);
    }
    const settings: PixConnectionSettings = {
      baseUrl: endpoints.baseUrl,
      tokenUrl: endpoints.tokenUrl,
      profile,
      clientId,
      pixKey,
      ca: input.ca ?? null,
    };
    const secrets: PixSecrets = { clientSecret: input.clientSecret, certificate: input.certificate };
    const access = accessOf(settings, secrets);

    // 1. The credentials and the certificate, checked with a real token request.
    try {
      await connector.checkToken(access);
    } catch (error) {
      throw pixFailure(error, 'API Pix credentials');
    }
    // 2. The webhook for the key, at Cobro's URL for this connection.
    const id = newId();
    const webhookId = randomAlphanumeric(24);
    const webhookUrl = webhookUrlFor(this.publicUrl, 'pix', webhookId);
    try {
      await connector.registerWebhook(access, pixKey, webhookUrl);
    } catch (error) {
      throw pixFailure(error, `webhook registration for the PIX key ${pixKey}`);
    }
    // 3. Stored sealed, with its audit entry, in one transaction.
    const now = this.clock.now().getTime();
    const connection: Connection = {
      id,
      merchantId,
      mode,
      provider: 'pix',
      accountId: pixKey,
      accountName: new URL(settings.baseUrl).host,
      publishableKey: '',
      secretKeySealed: this.box.seal(JSON.stringify(secrets)),
      // API Pix notifications carry no signature (the PSP's mutual TLS stands for it): nothing to keep.
      webhookSecretSealed: this.box.seal(''),
      webhookId,
      webhookEndpointId: pixKey,
      createdAt: now,
      updatedAt: now,
      lastEventAt: null,
      lastError: null,
      pix: settings,
    };
    try {
      await this.uow.transaction(async (repos) => {
        if (!(await repos.connections.insertConnection(connection))) {
          throw conflict('pix', mode);
        }
        await audit(
          repos,
          actor,
          {
            merchantId,
            action: 'payment_connection.create',
            objectType: 'payment_connection',
            objectId: `pix:${mode}`,
            detail: {
              provider: 'pix',
              mode,
              profile,
              base_url: settings.baseUrl,
              client_id: clientId,
              pix_key: pixKey,
              webhook_url: webhookUrl,
            },
          },
          now,
        );
      });
    } catch (error) {
      // Nothing was stored: the webhook just registered would notify a URL no connection answers.
      await connector.removeWebhook(access, pixKey).catch(() => undefined);
      throw error;
    }
    return viewOf(connection, this.publicUrl);
  }

  /** The merchant's API Pix connection in `mode` with its secrets opened, for a call to the PSP; null without one. */
  async pixAccess(
    merchantId: string,
    mode: Mode,
  ): Promise<{ connection: Connection; connector: PixConnector; access: PixAccess } | null> {
    const connection = await this.uow.read.connections.getConnection(merchantId, mode, 'pix');
    return connection ? this.pixAccessOf(connection) : null;
  }

  /** The same for a connection already read. */
  pixAccessOf(connection: Connection): { connection: Connection; connector: PixConnector; access: PixAccess } {
    if (!connection.pix) {
      throw new AppError('CONFLICT', [`connection ${connection.provider}:${connection.mode} is not an API Pix one`]);
    }
    const secrets = JSON.parse(this.box.open(connection.secretKeySealed)) as PixSecrets;
    return { connection, connector: this.pix(), access: accessOf(connection.pix, secrets) };
  }

  async list(merchantId: string): Promise<ConnectionView[]> {
    if (!(await this.uow.read.merchants.get(merchantId))) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
    }
    const rows = await this.uow.read.connections.listConnections(merchantId);
    return rows.map((c) => viewOf(c, this.publicUrl));
  }

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
        if (known === 'pix') {
          const { connector, access } = this.pixAccessOf(connection);
          await connector.removeWebhook(access, connection.webhookEndpointId);
        } else {
          await this.connector(known).deleteWebhookEndpoint(
            this.box.open(connection.secretKeySealed),
            connection.webhookEndpointId,
          );
        }
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

  /**
   * The merchant's connections in `mode` as the dashboard shows them: a card processor's secret
   * key masked (an API Pix connection's sealed secrets are not a key, and show nothing).
   */
  async shown(merchantId: string, mode: Mode): Promise<ShownConnection[]> {
    const rows = await this.uow.read.connections.listConnections(merchantId);
    return rows
      .filter((c) => c.mode === mode)
      .map((c) => {
        const key = CARD_PROVIDERS.includes(c.provider) ? this.openKey(c) : null;
        return { ...viewOf(c, this.publicUrl), secretKeyMasked: key === null ? null : maskSecret(key) };
      });
  }

  /**
   * Tests the merchant's card processor connection of `provider` in `mode` with the call
   * connecting made (the account check, with the stored key): whether the processor still
   * accepts the key, for the same account. Changes nothing.
   */
  async check(merchantId: string, provider: ConnectorProvider, mode: Mode): Promise<ConnectionCheck> {
    if (!CARD_PROVIDERS.includes(provider)) {
      throw new AppError('WRONG_INPUT', [`provider: testing a ${provider} connection is not available`]);
    }
    const connection = await this.uow.read.connections.getConnection(merchantId, mode, provider);
    if (!connection) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} has no ${provider} connection in ${mode} mode`]);
    }
    const key = this.openKey(connection);
    if (key === null) {
      return {
        ok: false,
        kind: 'UNREADABLE',
        message: "this server's secrets key cannot open the stored key (was SECRETS_KEY changed?); connect again",
      };
    }
    let account: { id: string; name: string | null };
    try {
      account = await this.connector(provider).account(key);
    } catch (error) {
      if (error instanceof ConnectorError) {
        return { ok: false, kind: error.kind, message: error.message };
      }
      throw error;
    }
    if (account.id !== connection.accountId) {
      return {
        ok: false,
        kind: 'OTHER_ACCOUNT',
        message: `the key now answers for account ${account.id}, not ${connection.accountId}`,
      };
    }
    return { ok: true, accountId: account.id, accountName: account.name };
  }

  /** The stored secret key in clear, or null when this server's secrets key cannot open it. */
  private openKey(connection: Connection): string | null {
    try {
      return this.box.open(connection.secretKeySealed);
    } catch {
      return null;
    }
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
}

function accessOf(settings: PixConnectionSettings, secrets: PixSecrets): PixAccess {
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

/** A PSP's refusal at connect time is the caller's input; an outage is ours to retry. */
function pixFailure(error: unknown, what: string): unknown {
  if (error instanceof ConnectorError) {
    return error.kind === 'UNAVAILABLE'
      ? new AppError('SERVICE_UNAVAILABLE', [`${what}: ${error.message}; try again shortly`])
      : new AppError('WRONG_INPUT', [`${what}: ${error.message}`]);
  }
  return error;
}

function conflict(provider: string, mode: Mode): AppError {
  return new AppError('CONFLICT', [
    `the merchant already has a ${provider} connection in ${mode} mode; remove it first (connect remove --provider ${provider} --mode ${mode})`,
  ]);
}
