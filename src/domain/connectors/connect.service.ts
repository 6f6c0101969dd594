import type { Actor } from '../dashboard/audit.ts';
import { audit } from '../dashboard/audit.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { newId, randomAlphanumeric } from '../shared/ids.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { ConnectorError } from './card-connector.ts';
import type { Connection, ConnectionView, ConnectorProvider, PixConnectionSettings } from './connection.ts';
import { viewOf, webhookUrlFor } from './connection.ts';
import type { ConnectorAccess, PixSecrets } from './connector-access.ts';
import { accessOf } from './connector-access.ts';
import type { PixClientCertificate } from './pix-connector.ts';
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
 * Connecting a merchant's own processor account (INTERFACE §11): the credentials are checked
 * with one real call and the processor is told where to send its events before anything is
 * stored, so a failed check stores nothing; then the connection is stored, secrets sealed,
 * with its audit entry in one transaction, and what was made at the processor is undone when
 * that fails.
 */
export class ConnectService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly access: ConnectorAccess,
    private readonly publicUrl: string,
  ) {}

  /** Connects a card processor (Stripe) with its keys, whose mode they name. */
  async connect(
    merchantId: string,
    provider: ConnectorProvider,
    input: ConnectInput,
    actor: Actor,
  ): Promise<ConnectionView> {
    const connector = this.access.connector(provider);
    await this.merchantExists(merchantId);
    const keys = connector.keysMode(input.secretKey, input.publishableKey);
    if (!keys.ok) {
      throw new AppError('WRONG_INPUT', [keys.message]);
    }
    const givenSecret = input.webhookSecret ?? null;
    if (givenSecret !== null && !connector.isWebhookSecret(givenSecret)) {
      throw new AppError('WRONG_INPUT', [`webhook secret: not a ${provider} webhook signing secret (whsec_…)`]);
    }
    const { mode } = keys;
    await this.vacant(merchantId, mode, provider);

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
    let endpoint: { id: string; secret: string } | null = null;
    if (givenSecret === null) {
      try {
        endpoint = await connector.createWebhookEndpoint(input.secretKey, {
          url: webhookUrlFor(this.publicUrl, provider, webhookId),
          idempotencyKey: `cobro-we-${id}`,
          merchantId,
        });
      } catch (error) {
        throw connectorFailure(error, `${provider} webhook endpoint`);
      }
    }
    // 3. Stored; the endpoint just made would only send events nobody can verify, so it goes if that fails.
    const made = endpoint;
    return this.store(
      {
        id,
        merchantId,
        mode,
        provider,
        accountId: account.id,
        accountName: account.name,
        publishableKey: input.publishableKey,
        secretKeySealed: this.box.seal(input.secretKey),
        webhookSecretSealed: this.box.seal(made?.secret ?? givenSecret ?? ''),
        webhookId,
        webhookEndpointId: made?.id ?? null,
        pix: null,
      },
      actor,
      { provider, mode, account_id: account.id, webhook_endpoint_id: made?.id ?? null },
      () => (made ? connector.deleteWebhookEndpoint(input.secretKey, made.id) : Promise.resolve()),
    );
  }

  /**
   * Connects the merchant's PSP through its API Pix (INTERFACE §11.2): the credentials checked
   * with a real token request, then the webhook registered for the PIX key at a URL of Cobro's,
   * unique to this merchant and mode; only then is anything stored (secrets sealed) and audited.
   * A refused credential or certificate, or a refused webhook, stores nothing.
   */
  async connectPix(merchantId: string, input: PixConnectInput, actor: Actor): Promise<ConnectionView> {
    const connector = this.access.pix();
    await this.merchantExists(merchantId);
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
    await this.vacant(merchantId, mode, 'pix');
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
    const webhookId = randomAlphanumeric(24);
    const webhookUrl = webhookUrlFor(this.publicUrl, 'pix', webhookId);
    try {
      await connector.registerWebhook(access, pixKey, webhookUrl);
    } catch (error) {
      throw pixFailure(error, `webhook registration for the PIX key ${pixKey}`);
    }
    // 3. Stored; the webhook just registered would notify a URL no connection answers, so it goes if that fails.
    return this.store(
      {
        id: newId(),
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
        pix: settings,
      },
      actor,
      {
        provider: 'pix',
        mode,
        profile,
        base_url: settings.baseUrl,
        client_id: clientId,
        pix_key: pixKey,
        webhook_url: webhookUrl,
      },
      () => connector.removeWebhook(access, pixKey),
    );
  }

  /**
   * Stores the connection with its audit entry in one transaction. When that fails, `undo`
   * removes what connecting made at the processor (best effort: the first error is the answer).
   */
  private async store(
    fields: Omit<Connection, 'createdAt' | 'updatedAt' | 'lastEventAt' | 'lastError'>,
    actor: Actor,
    detail: Record<string, string | number | boolean | null>,
    undo: () => Promise<void>,
  ): Promise<ConnectionView> {
    const now = this.clock.now().getTime();
    const connection: Connection = { ...fields, createdAt: now, updatedAt: now, lastEventAt: null, lastError: null };
    const { merchantId, provider, mode } = connection;
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
            detail,
          },
          now,
        );
      });
    } catch (error) {
      await undo().catch(() => undefined);
      throw error;
    }
    return viewOf(connection, this.publicUrl);
  }

  private async merchantExists(merchantId: string): Promise<void> {
    if (!(await this.uow.read.merchants.get(merchantId))) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
    }
  }

  /** One connection of a provider per merchant and mode: a second waits for the first's removal. */
  private async vacant(merchantId: string, mode: Mode, provider: ConnectorProvider): Promise<void> {
    if (await this.uow.read.connections.getConnection(merchantId, mode, provider)) {
      throw conflict(provider, mode);
    }
  }
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
