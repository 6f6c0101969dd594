import type { Mode } from '../../domain/merchants/merchant.ts';
import type {
  CardChargeInput,
  CardChargeResult,
  CardInput,
  CardPaymentProvider,
  CardSaveResult,
  ProviderError,
} from '../../domain/payment-methods/payment-provider.ts';
import type { ProcessorResult } from '../../domain/payment-methods/test-card-charge.ts';
import type { Money } from '../../domain/shared/money.ts';
import { normalizePan, parseExpiry } from './card-number.ts';
import type { TestCardProcessor } from './test-card-processor.ts';

/** Processor codes → what the payer is told. Unknown codes get the generic decline. */
const PAYER_MESSAGES: Record<string, string> = {
  card_declined: 'Your card was declined. Please use a different card or contact your bank.',
  insufficient_funds: 'Your card has insufficient funds. Please use a different card.',
  processing_error: 'We could not process your card right now. Please try again in a moment.',
  incorrect_number: 'The card number is incorrect.',
  incorrect_cvc: 'The security code is incorrect.',
  invalid_expiry: 'The expiry date is invalid.',
  expired_card: 'The card has expired.',
  invalid_token: 'The saved card can no longer be charged.',
  canceled: 'The payment was interrupted before your card was charged. Please try again.',
};

/** Maps a processor answer to ours: only explicit approval or decline moves money state. */
export function mapProcessorResult(
  r: ProcessorResult,
  token: string | null,
  expMonth: number,
  expYear: number,
): CardChargeResult {
  switch (r.status) {
    case 'approved':
      return { status: 'PAID', ref: r.chargeId, brand: r.brand, last4: r.last4, expMonth, expYear, token };
    case 'pending':
      return { status: 'PENDING', ref: r.chargeId, brand: r.brand, last4: r.last4, expMonth, expYear, token };
    case 'declined':
    case 'failed':
      return {
        status: 'FAILED',
        ref: r.chargeId,
        code: r.code,
        message: PAYER_MESSAGES[r.code] ?? PAYER_MESSAGES.card_declined ?? 'declined',
        brand: r.brand,
        last4: r.last4,
      };
  }
}

/**
 * The CARD adapter. In test mode it talks to the test processor (the stand-in for the card
 * network); live processors plug in behind the same interface. The card number and CVC go to
 * the processor and nowhere else: they are not returned, stored or logged.
 */
export class CardProvider implements CardPaymentProvider {
  readonly type = 'CARD' as const;
  readonly supportsRecurring = true as const;
  constructor(
    private readonly processors: { test: TestCardProcessor; live: TestCardProcessor | null },
    private readonly now: () => Date,
  ) {}

  private processor(mode: Mode): TestCardProcessor {
    const p = mode === 'test' ? this.processors.test : this.processors.live;
    if (!p) {
      throw new Error('no live card processor is configured');
    }
    return p;
  }

  async charge(input: CardChargeInput): Promise<CardChargeResult> {
    const pan = normalizePan(input.card.number);
    const expiry = parseExpiry(input.card.expiry, this.now());
    if (!pan || !expiry.ok) {
      return { status: 'FAILED', ref: null, code: 'incorrect_number', message: PAYER_MESSAGES.incorrect_number ?? '' };
    }
    const processor = this.processor(input.mode);
    if (input.saveCard) {
      const tokenized = await processor.tokenize({
        pan,
        expMonth: expiry.month,
        expYear: expiry.year,
        cvc: input.card.cvc,
      });
      if (tokenized.status === 'rejected') {
        return { status: 'FAILED', ref: null, code: tokenized.code, message: PAYER_MESSAGES[tokenized.code] ?? '' };
      }
      if (input.charged.amountMinor === 0n) {
        // A trial without sign-up fee: the card is saved, nothing is charged.
        return {
          status: 'PAID',
          ref: `setup_${input.idempotencyKey}`,
          brand: tokenized.brand,
          last4: tokenized.last4,
          expMonth: expiry.month,
          expYear: expiry.year,
          token: tokenized.token,
        };
      }
      const result = await processor.chargeToken({
        token: tokenized.token,
        amountMinor: input.charged.amountMinor,
        currency: input.charged.currency,
        idempotencyKey: input.idempotencyKey,
      });
      return mapProcessorResult(result, tokenized.token, expiry.month, expiry.year);
    }
    const result = await processor.authorize({
      pan,
      expMonth: expiry.month,
      expYear: expiry.year,
      cvc: input.card.cvc,
      amountMinor: input.charged.amountMinor,
      currency: input.charged.currency,
      idempotencyKey: input.idempotencyKey,
    });
    return mapProcessorResult(result, null, expiry.month, expiry.year);
  }

  async sync(ref: string): Promise<CardChargeResult | null> {
    // Charges are looked up on the test processor first; ids are unique across processors.
    const result = (await this.processors.test.retrieve(ref)) ?? (await this.processors.live?.retrieve(ref)) ?? null;
    if (!result) {
      return null;
    }
    return mapProcessorResult(result, null, result.expMonth, result.expYear);
  }

  async recover(idempotencyKey: string, mode: Mode): Promise<CardChargeResult> {
    const result = await this.processor(mode).cancel(idempotencyKey);
    return mapProcessorResult(result, result.token, result.expMonth, result.expYear);
  }

  async chargeToken(input: {
    token: string;
    charged: Money;
    idempotencyKey: string;
    mode: Mode;
  }): Promise<CardChargeResult> {
    const result = await this.processor(input.mode).chargeToken({
      token: input.token,
      amountMinor: input.charged.amountMinor,
      currency: input.charged.currency,
      idempotencyKey: input.idempotencyKey,
    });
    return mapProcessorResult(result, input.token, 0, 0);
  }

  async saveCard(input: { card: CardInput; mode: Mode }): Promise<CardSaveResult> {
    const pan = normalizePan(input.card.number);
    const expiry = parseExpiry(input.card.expiry, this.now());
    if (!pan) {
      return { status: 'FAILED', code: 'incorrect_number', message: PAYER_MESSAGES.incorrect_number ?? '' };
    }
    if (!expiry.ok) {
      const code = expiry.error === 'expired' ? 'expired_card' : 'invalid_expiry';
      return { status: 'FAILED', code, message: PAYER_MESSAGES[code] ?? '' };
    }
    const tokenized = await this.processor(input.mode).tokenize({
      pan,
      expMonth: expiry.month,
      expYear: expiry.year,
      cvc: input.card.cvc,
    });
    if (tokenized.status === 'rejected') {
      return { status: 'FAILED', code: tokenized.code, message: PAYER_MESSAGES[tokenized.code] ?? '' };
    }
    return {
      status: 'SAVED',
      token: tokenized.token,
      brand: tokenized.brand,
      last4: tokenized.last4,
      expMonth: expiry.month,
      expYear: expiry.year,
    };
  }

  async refund(ref: string, mode: Mode): Promise<{ ok: true } | { ok: false; error: ProviderError }> {
    const done = await this.processor(mode).refund(ref);
    return done
      ? { ok: true }
      : { ok: false, error: { code: 'DECLINED', message: 'the processor refused the refund', retryable: false } };
  }
}
