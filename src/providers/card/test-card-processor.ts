import { randomBytes } from 'node:crypto';
import type { CardBrand } from '../../domain/payment-methods/card-brand.ts';
import type {
  ChargeCommon,
  DeclineCode,
  FailureCode,
  ProcessorResult,
  StoredCharge,
  StoredToken,
  TestCardOutcome,
} from '../../domain/payment-methods/test-card-charge.ts';
import type { TestProcessorStore } from '../../domain/repositories/test-card-processor.repository.ts';
import { cvcLengthFor, detectBrand, luhnValid, parseExpiry } from './card-number.ts';
import { outcomeForPan, TEST_CARDS } from './test-cards.ts';

/*
 * A stand-in for an outside card network, used in test mode only. It behaves like a processor's
 * sandbox (outcomes chosen by card number, Stripe-style) so checkout flows can be exercised end to
 * end without real cards. It is deliberately not where Cobro's own card logic lives.
 */

export interface AuthorizeRequest {
  pan: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  amountMinor: bigint;
  /** ISO 4217 code, e.g. `BRL`. */
  currency: string;
  idempotencyKey: string;
}

export interface TokenizeRequest {
  pan: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export type TokenizeResult =
  | { status: 'tokenized'; token: string; brand: CardBrand; last4: string }
  | { status: 'rejected'; code: 'incorrect_number' | 'incorrect_cvc' | 'invalid_expiry' | 'expired_card' };

export interface ChargeTokenRequest {
  token: string;
  amountMinor: bigint;
  currency: string;
  idempotencyKey: string;
}

export interface TestCardProcessorOptions {
  /** Clock used for `createdAt`, expiry checks and the delayed-approval card. */
  now?: () => Date;
  /** How long the `approved_after_delay` card stays pending, measured on `now()`. Default 3000 ms. */
  approvalDelayMs?: number;
  /** Simulated network latency added to every call, in real milliseconds. Default 0. */
  latencyMs?: number;
  /** Where tokens and charges are kept: the processor calls this store and keeps nothing itself. */
  store: TestProcessorStore;
}

/** Thrown when an idempotency key is replayed with a different request, as real processors refuse it. */
export class IdempotencyKeyReuseError extends Error {
  constructor(key: string) {
    super(`idempotency key "${key}" was already used with different parameters`);
    this.name = 'IdempotencyKeyReuseError';
  }
}

const randomId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

function assertMoney(amountMinor: bigint, currency: string): void {
  if (typeof amountMinor !== 'bigint' || amountMinor <= 0n) {
    throw new RangeError('amountMinor must be a positive bigint');
  }
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new RangeError('currency must be a three-letter uppercase ISO 4217 code');
  }
}

function assertIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > 255) {
    throw new RangeError('idempotencyKey must be 1 to 255 characters');
  }
}

/**
 * Simulated card processor for test mode. Outcomes follow {@link TEST_CARDS}; every capture is
 * recorded under its idempotency key and a repeated key gets the first answer back, so a key never
 * captures twice. Card numbers and security codes are used during the call and then dropped: only
 * brand, last four digits and outcome class are kept, per token.
 */
export class TestCardProcessor {
  private readonly now: () => Date;
  private readonly approvalDelayMs: number;
  private readonly latencyMs: number;
  private readonly store: TestProcessorStore;

  constructor(options: TestCardProcessorOptions) {
    this.now = options.now ?? (() => new Date());
    this.approvalDelayMs = options.approvalDelayMs ?? 3000;
    this.latencyMs = options.latencyMs ?? 0;
    this.store = options.store;
    if (!Number.isFinite(this.approvalDelayMs) || this.approvalDelayMs < 0) {
      throw new RangeError('approvalDelayMs must be a non-negative number');
    }
    if (!Number.isFinite(this.latencyMs) || this.latencyMs < 0) {
      throw new RangeError('latencyMs must be a non-negative number');
    }
  }

  /**
   * Authorizes and captures a charge on a card in one step.
   *
   * Rejects with RangeError on programming errors (non-positive amount, malformed currency or key)
   * and with IdempotencyKeyReuseError when the key was already used for a different request.
   */
  async authorize(request: AuthorizeRequest): Promise<ProcessorResult> {
    const { pan, expMonth, expYear, cvc, amountMinor, currency, idempotencyKey } = request;
    assertMoney(amountMinor, currency);
    assertIdempotencyKey(idempotencyKey);
    const brand = detectBrand(pan);
    const last4 = pan.slice(-4);
    const outcome = outcomeForPan(pan);
    const rejection = this.checkCard(pan, expMonth, expYear, cvc);
    // The fingerprint holds nothing secret, so it can live as long as the capture record.
    const fingerprint = ['authorize', amountMinor, currency, brand, last4, expMonth, expYear].join('|');
    return this.capture(idempotencyKey, fingerprint, async () =>
      this.settle({ amountMinor, currency, brand, last4, expMonth, expYear, token: null }, rejection ?? outcome),
    );
  }

  /** Saves a card for later charges and returns a token that stands for it. */
  async tokenize(request: TokenizeRequest): Promise<TokenizeResult> {
    const { pan, expMonth, expYear, cvc } = request;
    const rejection = this.checkCard(pan, expMonth, expYear, cvc);
    await this.delay();
    if (rejection !== null) {
      return { status: 'rejected', code: rejection };
    }
    const token = randomId('tok');
    const stored: StoredToken = {
      brand: detectBrand(pan),
      last4: pan.slice(-4),
      expMonth,
      expYear,
      outcome: outcomeForPan(pan),
    };
    await this.store.putToken(token, stored);
    return { status: 'tokenized', token, brand: stored.brand, last4: stored.last4 };
  }

  /**
   * Charges a saved card. The card's outcome class decides the answer, so the
   * `charge_declined_after_attach` card tokenizes fine and then declines here.
   *
   * Rejects with RangeError on programming errors and IdempotencyKeyReuseError on a conflicting replay.
   */
  async chargeToken(request: ChargeTokenRequest): Promise<ProcessorResult> {
    const { token, amountMinor, currency, idempotencyKey } = request;
    assertMoney(amountMinor, currency);
    assertIdempotencyKey(idempotencyKey);
    const fingerprint = ['token', token, amountMinor, currency].join('|');
    return this.capture(idempotencyKey, fingerprint, async () => {
      const stored = await this.store.getToken(token);
      if (stored === undefined) {
        const unknown = { amountMinor, currency, brand: 'UNKNOWN' as const, last4: '', expMonth: 0, expYear: 0, token };
        return this.settle(unknown, 'invalid_token');
      }
      const outcome = stored.outcome === 'charge_declined_after_attach' ? 'card_declined' : stored.outcome;
      const { brand, last4, expMonth, expYear } = stored;
      return this.settle({ amountMinor, currency, brand, last4, expMonth, expYear, token }, outcome);
    });
  }

  /**
   * Current state of a charge, or `null` when the id is unknown. A pending charge turns approved
   * once `approvalDelayMs` has passed on the injected clock since it was created.
   */
  async retrieve(chargeId: string): Promise<ProcessorResult | null> {
    await this.delay();
    const stored = await this.store.getCharge(chargeId);
    return stored ? this.current(stored) : null;
  }

  /**
   * Gives up on an idempotency key: if a charge was made under it, that charge (as it is now);
   * if not, none ever will be — the key is spent on a `canceled` record, and a late request under
   * it is refused as a different request. What a caller that lost track of a request (it crashed
   * mid-call) asks, so that it can settle its side without ever charging twice.
   */
  async cancel(idempotencyKey: string): Promise<ProcessorResult> {
    assertIdempotencyKey(idempotencyKey);
    await this.delay();
    const tombstone = this.settle(
      { amountMinor: 0n, currency: 'XXX', brand: 'UNKNOWN', last4: '', expMonth: 0, expYear: 0, token: null },
      'canceled',
    );
    const kept = await this.store.putCharge({ idempotencyKey, fingerprint: 'cancel', refunded: false, ...tombstone });
    return this.current(kept);
  }

  /** Refunds an approved charge in full; false when the charge is unknown or was not approved. */
  async refund(chargeId: string): Promise<boolean> {
    await this.delay();
    const stored = await this.store.getCharge(chargeId);
    if (stored === undefined || (await this.current(stored)).status !== 'approved') {
      return false;
    }
    return this.store.markRefunded(chargeId);
  }

  /** Charge ids refunded so far. */
  async listRefunds(): Promise<string[]> {
    return (await this.store.listCharges()).filter((c) => c.refunded).map((c) => c.result.chargeId);
  }

  /** Every charge created so far (at most one per idempotency key), in creation order. */
  async listCharges(): Promise<ProcessorResult[]> {
    const charges = await this.store.listCharges();
    return charges.filter((c) => c.fingerprint !== 'cancel').map((c) => c.result);
  }

  /** A stored charge as it stands now: a pending one is approved once its delay has passed. */
  private async current(stored: StoredCharge): Promise<ProcessorResult> {
    const { result, approveAtMs } = stored;
    if (result.status === 'pending' && approveAtMs !== null && this.now().getTime() >= approveAtMs) {
      const approved: ProcessorResult = { ...result, status: 'approved' };
      await this.store.settle(result.chargeId, approved);
      return approved;
    }
    return structuredClone(result);
  }

  private checkCard(
    pan: string,
    expMonth: number,
    expYear: number,
    cvc: string,
  ): 'incorrect_number' | 'incorrect_cvc' | 'invalid_expiry' | 'expired_card' | null {
    if (!/^[0-9]{12,19}$/.test(pan) || !luhnValid(pan)) {
      return 'incorrect_number';
    }
    if (!Number.isInteger(expMonth) || !Number.isInteger(expYear)) {
      return 'invalid_expiry';
    }
    const expiry = parseExpiry(`${expMonth}/${expYear}`, this.now());
    if (!expiry.ok) {
      return expiry.error === 'expired' ? 'expired_card' : 'invalid_expiry';
    }
    const brand = detectBrand(pan);
    const length = brand === 'UNKNOWN' ? [3, 4] : [cvcLengthFor(brand)];
    if (!/^[0-9]+$/.test(cvc) || !length.includes(cvc.length)) {
      return 'incorrect_cvc';
    }
    return null;
  }

  /**
   * One charge per key: a repeated key gets the first answer back (as first given), a different
   * request under it is refused. The store keeps the first charge recorded under a key, so every
   * call decides and offers its answer, and gets back the one kept: deciding is free of side
   * effects, so a replay wastes only that, and a first request (nearly every one) needs no lookup.
   */
  private async capture(
    key: string,
    fingerprint: string,
    run: () => Promise<{ result: ProcessorResult; approveAtMs: number | null }>,
  ): Promise<ProcessorResult> {
    await this.delay();
    const fresh = await run();
    const kept = await this.store.putCharge({ idempotencyKey: key, fingerprint, refunded: false, ...fresh });
    if (kept.fingerprint !== fingerprint) {
      throw new IdempotencyKeyReuseError(key);
    }
    return kept.result;
  }

  private settle(
    card: Omit<ChargeCommon, 'chargeId' | 'createdAt'>,
    outcome: TestCardOutcome | DeclineCode | FailureCode,
  ): { result: ProcessorResult; approveAtMs: number | null } {
    const createdAt = this.now();
    const common: ChargeCommon = { chargeId: randomId('ch'), createdAt, ...card };
    let result: ProcessorResult;
    let approveAtMs: number | null = null;
    switch (outcome) {
      case 'approved':
        result = { ...common, status: 'approved' };
        break;
      case 'approved_after_delay':
        result = { ...common, status: 'pending' };
        approveAtMs = createdAt.getTime() + this.approvalDelayMs;
        break;
      case 'card_declined':
      case 'charge_declined_after_attach':
        result = { ...common, status: 'declined', code: 'card_declined' };
        break;
      case 'insufficient_funds':
      case 'incorrect_number':
      case 'incorrect_cvc':
      case 'invalid_expiry':
      case 'expired_card':
        result = { ...common, status: 'declined', code: outcome };
        break;
      case 'processing_error':
      case 'invalid_token':
      case 'canceled':
        result = { ...common, status: 'failed', code: outcome };
        break;
    }
    return { result, approveAtMs };
  }

  private delay(): Promise<void> {
    if (this.latencyMs <= 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => setTimeout(resolve, this.latencyMs));
  }
}
