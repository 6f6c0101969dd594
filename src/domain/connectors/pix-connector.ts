/**
 * The Central Bank's API Pix as Cobro uses it (INTERFACE §11.2): the port the connector in
 * providers/pix/api-pix/ implements. Statuses come back as the PSP words them and as what Cobro
 * does about them (mapped as data in the connector); amounts as minor units of BRL.
 */

/**
 * How a PSP departs from the published specification, where it documents that it does (base
 * path, token request, notification body): `bcb` is the specification as written.
 */
export type PixProfile = 'bcb' | 'efi' | 'inter';

export const PIX_PROFILES: readonly PixProfile[] = ['bcb', 'efi', 'inter'];

/** The client certificate of every call: PEM certificate (chain) and key, or a PKCS#12 bundle. */
export type PixClientCertificate =
  | { kind: 'pem'; cert: string; key: string }
  | { kind: 'pkcs12'; pfxBase64: string; passphrase: string | null };

/** Everything a call to one merchant's PSP needs, secrets opened. Never logged. */
export type PixAccess = {
  /** The API Pix root: every path (`/cob/{txid}`, `/webhook/{chave}`) is relative to it. */
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  certificate: PixClientCertificate;
  /** Extra trust anchors (PEM) for the PSP's server certificate; null: the system's. */
  ca: string | null;
  profile: PixProfile;
};

/**
 * What Cobro does about a charge (`cob`) as the PSP reports it:
 * - PAID: CONCLUIDA; whether it was paid in full is for the caller to check against the order.
 * - WAIT: ATIVA, still payable.
 * - GONE: removed (by the merchant or the PSP); it can no longer be paid.
 */
export type PixChargeOutcome = 'PAID' | 'WAIT' | 'GONE';

/** One Pix received for a charge. `amountMinor` in centavos. */
export type PixPayment = {
  endToEndId: string;
  amountMinor: bigint;
  at: string;
  refunds: PixRefundView[];
};

export type PixChargeView = {
  txid: string;
  /** The PSP's own word: ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP. */
  status: string;
  outcome: PixChargeOutcome;
  /** `valor.original`, in centavos. */
  amountMinor: bigint;
  /** The BR Code the payer scans or pastes; null when the PSP gave none. */
  pixCopiaECola: string | null;
  payments: PixPayment[];
};

/** REFUNDED when DEVOLVIDO, WAIT while EM_PROCESSAMENTO, FAILED when NAO_REALIZADO. */
export type PixRefundOutcome = 'REFUNDED' | 'WAIT' | 'FAILED';

export type PixRefundView = { id: string; status: string; outcome: PixRefundOutcome; amountMinor: bigint };

export type CreatePixChargeInput = {
  txid: string;
  /** Seconds the charge stays payable from its creation. */
  expiresInSeconds: number;
  amountMinor: bigint;
  pixKey: string;
  /** Shown to the payer by their bank (at most 140 characters). */
  payerMessage: string;
};

/** One notification the PSP POSTed to the webhook URL, read: the Pix it lists, by charge. */
export type PixNotification = { entries: { txid: string; endToEndId: string | null }[] };

/**
 * A PSP reached through the merchant's own API Pix credentials. The connector keeps nothing of a
 * merchant but the OAuth2 token it was given (reused until it expires). Calls that create
 * something are keyed by what they are for: `PUT /cob/{txid}` and `PUT /pix/{e2eid}/devolucao/{id}`
 * with a txid and an id fixed by the order, so a retry, or a process that died between the call
 * and storing its answer, gets the same charge or refund back, never a second one.
 * Failures are ConnectorError (domain/connectors/card-connector.ts), whose messages hold no secret.
 */
export interface PixConnector {
  /**
   * The API root and token URL for a profile: the base URL with the profile's path when it names a
   * bare host, the token URL given or the profile's default; or why they cannot be used (not
   * https). Pure.
   */
  endpoints(
    profile: PixProfile,
    baseUrl: string,
    tokenUrl: string | null,
  ): { ok: true; baseUrl: string; tokenUrl: string } | { ok: false; message: string };
  /** Gets a token with the credentials (one real call): a refused credential or certificate fails here. */
  checkToken(access: PixAccess): Promise<void>;
  /** `PUT /webhook/{chave}` with the URL the PSP is to notify. */
  registerWebhook(access: PixAccess, pixKey: string, webhookUrl: string): Promise<void>;
  /** `GET /webhook/{chave}`: the URL the PSP notifies for the key; null when it has none. */
  webhookOf(access: PixAccess, pixKey: string): Promise<string | null>;
  /** `DELETE /webhook/{chave}`; one already gone counts as deleted. */
  removeWebhook(access: PixAccess, pixKey: string): Promise<void>;
  /** `PUT /cob/{txid}`; the same txid again answers the charge already made. */
  createCharge(access: PixAccess, input: CreatePixChargeInput): Promise<PixChargeView>;
  /** `GET /cob/{txid}`. */
  getCharge(access: PixAccess, txid: string): Promise<PixChargeView>;
  /** `PATCH /cob/{txid}` to REMOVIDA_PELO_USUARIO_RECEBEDOR: no one can pay it any more. */
  removeCharge(access: PixAccess, txid: string): Promise<PixChargeView>;
  /** `PUT /pix/{e2eid}/devolucao/{id}`; the same id again answers the refund already asked for. */
  refund(
    access: PixAccess,
    input: { endToEndId: string; refundId: string; amountMinor: bigint },
  ): Promise<PixRefundView>;
  /** `GET /pix/{e2eid}/devolucao/{id}`. */
  getRefund(access: PixAccess, endToEndId: string, refundId: string): Promise<PixRefundView>;
  /**
   * The charges a notification body names, read the profile's way (`{"pix": [...]}`, or a bare
   * array for `inter`); null when the body is not a notification at all. Pure.
   */
  readNotification(profile: PixProfile, body: unknown): PixNotification | null;
}
