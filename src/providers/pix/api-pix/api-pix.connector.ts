import { ConnectorError } from '../../../domain/connectors/card-connector.ts';
import type {
  CreatePixChargeInput,
  PixAccess,
  PixChargeView,
  PixConnector,
  PixNotification,
  PixPayment,
  PixProfile,
  PixRefundView,
} from '../../../domain/connectors/pix-connector.ts';
import type { ApiPixClientOptions } from './api-pix.client.ts';
import { ApiPixClient, DEFAULT_API_PIX_OPTIONS, failure } from './api-pix.client.ts';
import { chargeOutcome, fromValor, refundOutcome, toValor } from './api-pix.mapping.ts';
import { resolveUrls } from './api-pix.profiles.ts';

type Json = Record<string, unknown>;

/** Pix a notification may list at most: a PSP groups a few; a body naming more is cut there. */
const MAX_NOTIFIED = 100;

/**
 * The API Pix connector: the merchant's own PSP, through the Central Bank's standard
 * (github.com/bacen/pix-api), with the PSP's profile where it departs from it. It translates
 * and keeps nothing but tokens.
 */
export class ApiPixConnector implements PixConnector {
  private readonly client: ApiPixClient;

  constructor(options: Partial<ApiPixClientOptions> = {}) {
    this.client = new ApiPixClient({ ...DEFAULT_API_PIX_OPTIONS, ...options });
  }

  endpoints(
    profile: PixProfile,
    baseUrl: string,
    tokenUrl: string | null,
  ): { ok: true; baseUrl: string; tokenUrl: string } | { ok: false; message: string } {
    try {
      return { ok: true, ...resolveUrls(profile, baseUrl, tokenUrl) };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  }

  async checkToken(access: PixAccess): Promise<void> {
    await this.client.token(access, true);
  }

  async registerWebhook(access: PixAccess, pixKey: string, webhookUrl: string): Promise<void> {
    const { status, answer } = await this.client.call(access, 'PUT', `/webhook/${encodeURIComponent(pixKey)}`, {
      webhookUrl,
    });
    if (status < 200 || status >= 300) {
      throw failure('webhook registration', answer);
    }
  }

  async webhookOf(access: PixAccess, pixKey: string): Promise<string | null> {
    const { status, json, answer } = await this.client.call(access, 'GET', `/webhook/${encodeURIComponent(pixKey)}`);
    if (status === 404) {
      return null;
    }
    if (status < 200 || status >= 300) {
      throw failure('webhook check', answer);
    }
    return typeof json?.webhookUrl === 'string' ? json.webhookUrl : null;
  }

  async removeWebhook(access: PixAccess, pixKey: string): Promise<void> {
    const { status, answer } = await this.client.call(access, 'DELETE', `/webhook/${encodeURIComponent(pixKey)}`);
    if ((status < 200 || status >= 300) && status !== 404) {
      throw failure('webhook removal', answer);
    }
  }

  async createCharge(access: PixAccess, input: CreatePixChargeInput): Promise<PixChargeView> {
    const body = {
      calendario: { expiracao: input.expiresInSeconds },
      valor: { original: toValor(input.amountMinor) },
      chave: input.pixKey,
      solicitacaoPagador: input.payerMessage.slice(0, 140),
    };
    const path = `/cob/${input.txid}`;
    const { status, json, answer } = await this.client.call(access, 'PUT', path, body);
    if (status >= 200 && status < 300) {
      return chargeView(json, input.txid);
    }
    if (status === 400 || status === 409 || status === 422) {
      // Some PSPs refuse a txid already used instead of answering the charge again: the charge
      // made under it is ours when it asks for the same amount to the same key.
      const existing = await this.getCharge(access, input.txid).catch(() => null);
      if (existing && existing.amountMinor === input.amountMinor) {
        return existing;
      }
    }
    throw failure(`charge ${input.txid}`, answer);
  }

  async getCharge(access: PixAccess, txid: string): Promise<PixChargeView> {
    const { status, json, answer } = await this.client.call(access, 'GET', `/cob/${txid}`);
    if (status !== 200) {
      throw failure(`charge ${txid}`, answer);
    }
    return chargeView(json, txid);
  }

  async removeCharge(access: PixAccess, txid: string): Promise<PixChargeView> {
    const { status, json, answer } = await this.client.call(access, 'PATCH', `/cob/${txid}`, {
      status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
    });
    if (status >= 200 && status < 300) {
      return chargeView(json, txid);
    }
    if (status === 400) {
      // Refused because it can no longer be removed (paid just before, or already removed): what it is now.
      const now = await this.getCharge(access, txid).catch(() => null);
      if (now && now.outcome !== 'WAIT') {
        return now;
      }
    }
    throw failure(`removing charge ${txid}`, answer);
  }

  async refund(
    access: PixAccess,
    input: { endToEndId: string; refundId: string; amountMinor: bigint },
  ): Promise<PixRefundView> {
    const path = `/pix/${input.endToEndId}/devolucao/${input.refundId}`;
    const { status, json, answer } = await this.client.call(access, 'PUT', path, {
      valor: toValor(input.amountMinor),
    });
    if (status >= 200 && status < 300) {
      return refundView(json, input.refundId);
    }
    if (status === 400 || status === 409 || status === 422) {
      // The same id asked for before: the refund already requested.
      const existing = await this.getRefund(access, input.endToEndId, input.refundId).catch(() => null);
      if (existing) {
        return existing;
      }
    }
    throw failure(`refund ${input.refundId}`, answer);
  }

  async getRefund(access: PixAccess, endToEndId: string, refundId: string): Promise<PixRefundView> {
    const { status, json, answer } = await this.client.call(access, 'GET', `/pix/${endToEndId}/devolucao/${refundId}`);
    if (status !== 200) {
      throw failure(`refund ${refundId}`, answer);
    }
    return refundView(json, refundId);
  }

  readNotification(_profile: PixProfile, body: unknown): PixNotification | null {
    let list: unknown;
    if (Array.isArray(body)) {
      list = body;
    } else if (body !== null && typeof body === 'object' && Array.isArray((body as Json).pix)) {
      list = (body as Json).pix;
    } else {
      return null;
    }
    // Each profile's own shape is what its PSP sends; the other is taken too (a PSP that changes
    // its mind, or a proxy that rewraps), since a notification only ever triggers a check.
    const entries: PixNotification['entries'] = [];
    for (const entry of (list as unknown[]).slice(0, MAX_NOTIFIED)) {
      const pix = (entry ?? {}) as Json;
      if (typeof pix.txid !== 'string' || !/^[a-zA-Z0-9]{1,35}$/.test(pix.txid)) {
        // A Pix without a txid pays no charge of Cobro's (a transfer to the key).
        continue;
      }
      const e2e =
        typeof pix.endToEndId === 'string' && /^[a-zA-Z0-9]{32}$/.test(pix.endToEndId) ? pix.endToEndId : null;
      entries.push({ txid: pix.txid, endToEndId: e2e });
    }
    return { entries };
  }
}

function chargeView(json: Json | null, txid: string): PixChargeView {
  const status = typeof json?.status === 'string' ? json.status : '';
  const amount = fromValor((json?.valor as Json | undefined)?.original);
  if (!json || status === '' || amount === null) {
    throw new ConnectorError(
      'UNAVAILABLE',
      `the PSP's answer about charge ${txid} is not a charge (no status or valor)`,
    );
  }
  if (typeof json.txid === 'string' && json.txid !== txid) {
    throw new ConnectorError('UNAVAILABLE', `the PSP answered about charge ${json.txid} when asked about ${txid}`);
  }
  const payments: PixPayment[] = [];
  for (const entry of Array.isArray(json.pix) ? json.pix : []) {
    const pix = (entry ?? {}) as Json;
    const value = fromValor(pix.valor);
    if (typeof pix.endToEndId !== 'string' || value === null) {
      continue;
    }
    payments.push({
      endToEndId: pix.endToEndId,
      amountMinor: value,
      at: typeof pix.horario === 'string' ? pix.horario : '',
      refunds: (Array.isArray(pix.devolucoes) ? pix.devolucoes : []).map((d) =>
        refundView(d as Json, String((d as Json)?.id ?? '')),
      ),
    });
  }
  return {
    txid,
    status,
    outcome: chargeOutcome(status),
    amountMinor: amount,
    pixCopiaECola: typeof json.pixCopiaECola === 'string' && json.pixCopiaECola !== '' ? json.pixCopiaECola : null,
    payments,
  };
}

function refundView(json: Json | null, id: string): PixRefundView {
  const status = typeof json?.status === 'string' ? json.status : '';
  const amount = fromValor(json?.valor);
  if (!json || status === '' || amount === null) {
    throw new ConnectorError('UNAVAILABLE', `the PSP's answer about refund ${id} is not a refund (no status or valor)`);
  }
  return {
    id: typeof json.id === 'string' ? json.id : id,
    status,
    outcome: refundOutcome(status),
    amountMinor: amount,
  };
}
