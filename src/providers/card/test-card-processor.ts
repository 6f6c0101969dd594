import { randomBytes } from 'node:crypto';
import type { CardBrand } from './card-number.ts';
import { cvcLengthFor, detectBrand, luhnValid, parseExpiry } from './card-number.ts';

/*
 * A stand-in for an outside card network, used in test mode only. It behaves like a processor's
 * sandbox (outcomes chosen by card number, Stripe-style) so checkout flows can be exercised end to
 * end without real cards. It is deliberately not where Cobro's own card logic lives.
 */

/** How a test card behaves; one entry per row of the published test card table. */
export type TestCardOutcome =
  | 'approved'
  | 'card_declined'
  | 'insufficient_funds'
  | 'processing_error'
  | 'approved_after_delay'
  | 'charge_declined_after_attach';

export interface TestCard {
  pan: string;
  brand: CardBrand;
  outcome: TestCardOutcome;
  /** What the processor answers, in API terms. */
  result: string;
  /** What the payer is shown at checkout. */
  payerSees: string;
}

/** The single source for docs/test-cards.md and the tests: change a row here and both follow. */
export const TEST_CARDS: readonly TestCard[] = [
  {
    pan: '4242424242424242',
    brand: 'VISA',
    outcome: 'approved',
    result: '`approved`',
    payerSees: 'Payment approved.',
  },
  {
    pan: '4000000000000002',
    brand: 'VISA',
    outcome: 'card_declined',
    result: '`declined`, code `card_declined`',
    payerSees: 'Your card was declined. Please use a different card or contact your bank.',
  },
  {
    pan: '4000000000009995',
    brand: 'VISA',
    outcome: 'insufficient_funds',
    result: '`declined`, code `insufficient_funds`',
    payerSees: 'Your card has insufficient funds. Please use a different card.',
  },
  {
    pan: '4000000000000119',
    brand: 'VISA',
    outcome: 'processing_error',
    result: '`failed`, code `processing_error`',
    payerSees: 'We could not process your card right now. Please try again in a moment.',
  },
  {
    pan: '4000000000003220',
    brand: 'VISA',
    outcome: 'approved_after_delay',
    result: '`pending`, then `approved` once the confirmation delay has passed',
    payerSees: 'Confirming your payment… then Payment approved.',
  },
  {
    pan: '4000000000000341',
    brand: 'VISA',
    outcome: 'charge_declined_after_attach',
    result: 'tokenizes (card can be saved); every charge `declined`, code `card_declined`',
    payerSees: 'Card saved; later charges: Your card was declined. Please use a different card or contact your bank.',
  },
];

/** Outcome of a card number: its table row, or `approved` for any other Luhn-valid number. */
export function outcomeForPan(pan: string): TestCardOutcome {
  return TEST_CARDS.find((card) => card.pan === pan)?.outcome ?? 'approved';
}

export type DeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'incorrect_number'
  | 'incorrect_cvc'
  | 'invalid_expiry'
  | 'expired_card';
export type FailureCode = 'processing_error' | 'invalid_token';

interface ChargeCommon {
  chargeId: string;
  amountMinor: bigint;
  currency: string;
  brand: CardBrand;
  last4: string;
  createdAt: Date;
}

export type ProcessorResult =
  | (ChargeCommon & { status: 'approved' })
  | (ChargeCommon & { status: 'pending' })
  | (ChargeCommon & { status: 'declined'; code: DeclineCode })
  | (ChargeCommon & { status: 'failed'; code: FailureCode });

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
}

/** Thrown when an idempotency key is replayed with a different request, as real processors refuse it. */
export class IdempotencyKeyReuseError extends Error {
  constructor(key: string) {
    super(`idempotency key "${key}" was already used with different parameters`);
    this.name = 'IdempotencyKeyReuseError';
  }
}

interface StoredToken {
  brand: CardBrand;
  last4: string;
  outcome: TestCardOutcome;
}

interface StoredCharge {
  result: ProcessorResult;
  approveAtMs: number | null;
}

interface Capture {
  fingerprint: string;
  result: Promise<ProcessorResult>;
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
  private readonly refunded = new Set<string>();
  private readonly now: () => Date;
  private readonly approvalDelayMs: number;
  private readonly latencyMs: number;
  private readonly tokens = new Map<string, StoredToken>();
  private readonly charges = new Map<string, StoredCharge>();
  private readonly captures = new Map<string, Capture>();

  constructor(options: TestCardProcessorOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.approvalDelayMs = options.approvalDelayMs ?? 3000;
    this.latencyMs = options.latencyMs ?? 0;
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
    return this.capture(idempotencyKey, fingerprint, () =>
      this.settle({ amountMinor, currency, brand, last4 }, rejection ?? outcome),
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
    const stored: StoredToken = { brand: detectBrand(pan), last4: pan.slice(-4), outcome: outcomeForPan(pan) };
    this.tokens.set(token, stored);
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
    return this.capture(idempotencyKey, fingerprint, () => {
      const stored = this.tokens.get(token);
      if (stored === undefined) {
        return this.settle({ amountMinor, currency, brand: 'UNKNOWN', last4: '' }, 'invalid_token');
      }
      const outcome = stored.outcome === 'charge_declined_after_attach' ? 'card_declined' : stored.outcome;
      return this.settle({ amountMinor, currency, brand: stored.brand, last4: stored.last4 }, outcome);
    });
  }

  /**
   * Current state of a charge, or `null` when the id is unknown. A pending charge turns approved
   * once `approvalDelayMs` has passed on the injected clock since it was created.
   */
  async retrieve(chargeId: string): Promise<ProcessorResult | null> {
    await this.delay();
    const stored = this.charges.get(chargeId);
    if (stored === undefined) {
      return null;
    }
    if (
      stored.result.status === 'pending' &&
      stored.approveAtMs !== null &&
      this.now().getTime() >= stored.approveAtMs
    ) {
      const { chargeId: id, amountMinor, currency, brand, last4, createdAt } = stored.result;
      stored.result = { chargeId: id, amountMinor, currency, brand, last4, createdAt, status: 'approved' };
      stored.approveAtMs = null;
    }
    return structuredClone(stored.result);
  }

  /** Refunds an approved charge in full; false when the charge is unknown or was not approved. */
  async refund(chargeId: string): Promise<boolean> {
    await this.delay();
    const stored = this.charges.get(chargeId);
    if (stored === undefined || stored.result.status !== 'approved' || this.refunded.has(chargeId)) {
      return false;
    }
    this.refunded.add(chargeId);
    return true;
  }

  /** Charge ids refunded so far. */
  listRefunds(): string[] {
    return [...this.refunded];
  }

  /** Every charge created so far (at most one per idempotency key), in creation order. */
  listCharges(): ProcessorResult[] {
    return [...this.charges.values()].map((c) => structuredClone(c.result));
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

  private capture(key: string, fingerprint: string, run: () => ProcessorResult): Promise<ProcessorResult> {
    const existing = this.captures.get(key);
    if (existing !== undefined) {
      if (existing.fingerprint !== fingerprint) {
        return Promise.reject(new IdempotencyKeyReuseError(key));
      }
      return existing.result.then((r) => structuredClone(r));
    }
    // Registered before the first await so concurrent calls with the same key share one capture.
    const result = this.delay().then(run);
    this.captures.set(key, { fingerprint, result });
    return result.then((r) => structuredClone(r));
  }

  private settle(
    card: { amountMinor: bigint; currency: string; brand: CardBrand; last4: string },
    outcome: TestCardOutcome | DeclineCode | FailureCode,
  ): ProcessorResult {
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
        result = { ...common, status: 'failed', code: outcome };
        break;
    }
    this.charges.set(result.chargeId, { result, approveAtMs });
    return structuredClone(result);
  }

  private delay(): Promise<void> {
    if (this.latencyMs <= 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => setTimeout(resolve, this.latencyMs));
  }
}
