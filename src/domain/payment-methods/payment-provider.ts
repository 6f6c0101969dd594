import type { Payer } from '../checkout-preferences/checkout-preference.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { PaymentInstructions } from '../payment-orders/payment-order.ts';
import type { Money } from '../shared/money.ts';
import type { PaymentMethod, PaymentMethodType } from './payment-method.ts';

export type ProviderError = {
  code: 'DECLINED' | 'UNAVAILABLE' | 'REJECTED_INPUT' | 'BAD_SIGNATURE' | 'NOT_CONFIGURED';
  message: string;
  retryable: boolean;
};

/** The merchant's own payment details, used by the push methods (money goes straight to the merchant). */
export type MerchantPaymentSettings = {
  pix: { key: string; merchantName: string; city: string } | null;
  crypto: { btcXpub: string | null; btcNetwork: 'mainnet' | 'testnet'; evmXpub: string | null } | null;
  bank: { bankName: string; accountHolder: string; accountNumber: string; routing: string } | null;
};

/** Card data as typed by the payer: passed to the processor and dropped; never stored or logged. */
export type CardInput = { number: string; expiry: string; cvc: string; holderName: string };

export type InitiateInput = {
  orderId: string;
  merchantId: string;
  mode: Mode;
  method: PaymentMethod;
  /** What this method charges, in its own currency. */
  charged: Money;
  payer: Payer;
  expiresAt: Date;
  settings: MerchantPaymentSettings;
  /** Next unused address index for this merchant and network (crypto only). */
  derivationIndex: number;
  /** A number that is unique per merchant (references, vouchers). */
  sequence: bigint;
};

/** A card charge: a push method's settings, address index and reference number mean nothing to it. */
export type CardChargeInput = Omit<InitiateInput, 'settings' | 'derivationIndex' | 'sequence'> & {
  card: CardInput;
  saveCard: boolean;
  idempotencyKey: string;
};

/** A push method's instructions, built without any outside call (pure): BR Code, address, reference, voucher. */
export interface PushPaymentProvider {
  readonly type: Exclude<PaymentMethodType, 'CARD'>;
  readonly supportsRecurring: boolean;
  prepare(
    input: InitiateInput,
  ): { ok: true; instructions: PaymentInstructions; ref: string } | { ok: false; error: ProviderError };
}

export type CardChargeResult =
  | {
      status: 'PAID';
      ref: string;
      brand: string;
      last4: string;
      expMonth: number;
      expYear: number;
      token: string | null;
    }
  | {
      status: 'PENDING';
      ref: string;
      brand: string;
      last4: string;
      expMonth: number;
      expYear: number;
      token: string | null;
    }
  | { status: 'FAILED'; ref: string | null; code: string; message: string; brand?: string; last4?: string };

/** A card kept by the processor for later charges, or why it was refused. */
export type CardSaveResult =
  | { status: 'SAVED'; token: string; brand: string; last4: string; expMonth: number; expYear: number }
  | { status: 'FAILED'; code: string; message: string };

/** The card adapter: the only one that calls an outside party (the processor) during checkout. */
export interface CardPaymentProvider {
  readonly type: 'CARD';
  readonly supportsRecurring: true;
  /** Authorizes and captures; `idempotencyKey` makes a repeated call return the first result. */
  charge(input: CardChargeInput): Promise<CardChargeResult>;
  /** Asks the processor about a charge it already knows (a PENDING one). */
  sync(ref: string): Promise<CardChargeResult | null>;
  /**
   * Settles a charge whose caller lost track of it (its process died mid-call): the processor
   * says what became of `idempotencyKey` and refuses any charge under it from now on, so the
   * result is final — a charge made (PAID, FAILED or PENDING), or none ever (FAILED, `canceled`).
   */
  recover(idempotencyKey: string, mode: Mode): Promise<CardChargeResult>;
  chargeToken(input: { token: string; charged: Money; idempotencyKey: string; mode: Mode }): Promise<CardChargeResult>;
  /**
   * Has the processor keep a card without charging it (a subscriber changes the card of later
   * renewals). The number and security code go to the processor only; the token comes back.
   */
  saveCard(input: { card: CardInput; mode: Mode }): Promise<CardSaveResult>;
  refund(ref: string, mode: Mode): Promise<{ ok: true } | { ok: false; error: ProviderError }>;
}

/** One payment to an address, in the token's base units, and how deeply confirmed. */
export type ChainPayment = { txid: string; amountBaseUnits: bigint; confirmations: number };

/** An address watched for payments in `currency` (a token: another token's transfers to it do not count). */
export type ChainWatch = { address: string; currency: string };

/** How a chain source is doing, for `/ready` and the metrics. */
export type ChainSourceStatus = {
  /** The highest tip it reported; null before its first answer. */
  tipHeight: number | null;
  /** Calls that failed since the process started. */
  errors: number;
  /** The last call's failure, or null when the last call succeeded. */
  lastError: string | null;
  /** Blocks between the tip and where the scan stands (sources that scan blocks; null for others). */
  lagBlocks: number | null;
  /** Each token it watches, by currency (sources of tokens only: an EVM network's). */
  tokens?: Record<string, ChainTokenStatus>;
};

/**
 * One token of a chain source. UNVERIFIED until the node first answered about its contract;
 * DISABLED when the contract failed the source's check (its payments are not counted, and no live
 * order is opened in it, while the others go on); ENABLED otherwise.
 */
export type ChainTokenStatus = {
  contract: string;
  status: 'UNVERIFIED' | 'ENABLED' | 'DISABLED';
  /** Why it is DISABLED, in a sentence naming the currency and the contract; null otherwise. */
  reason: string | null;
};

/** A blockchain observer: what addresses have received and how deeply confirmed. */
export interface ChainWatcher {
  /**
   * Reads where the chains stand now. Called before the orders to watch are listed, so that an
   * order opened after it is paid later than what it read, and is seen on the next look.
   */
  refresh?(): Promise<void>;
  /**
   * The networks it watches, each asked every run even with no order open on it (a source that
   * scans blocks then moves on past blocks nobody can have paid in).
   */
  networks?(): string[];
  /** Every payment to each watched address on `network`, keyed by the address as given. */
  received(network: string, watches: readonly ChainWatch[]): Promise<Map<string, ChainPayment[]>>;
}
