import type { CardBrand } from './card-brand.ts';

// What the test-mode card processor answers and keeps: its charge results, and the tokens and
// charges its store holds (repositories/test-card-processor.repository.ts).

/** How a test card behaves; one entry per row of the published test card table. */
export type TestCardOutcome =
  | 'approved'
  | 'card_declined'
  | 'insufficient_funds'
  | 'processing_error'
  | 'approved_after_delay'
  | 'charge_declined_after_attach';

export type DeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'incorrect_number'
  | 'incorrect_cvc'
  | 'invalid_expiry'
  | 'expired_card';
/** `canceled`: the merchant gave up on the key before any charge was made under it (see `cancel`). */
export type FailureCode = 'processing_error' | 'invalid_token' | 'canceled';

/** What every answer to a charge carries. */
export interface ChargeCommon {
  chargeId: string;
  amountMinor: bigint;
  currency: string;
  brand: CardBrand;
  last4: string;
  /** The card's expiry, as processors return it with a charge. */
  expMonth: number;
  expYear: number;
  /** The saved card charged (a token), null for a card typed in. */
  token: string | null;
  createdAt: Date;
}

export type ProcessorResult =
  | (ChargeCommon & { status: 'approved' })
  | (ChargeCommon & { status: 'pending' })
  | (ChargeCommon & { status: 'declined'; code: DeclineCode })
  | (ChargeCommon & { status: 'failed'; code: FailureCode });

export interface StoredToken {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  outcome: TestCardOutcome;
}

/** A charge as the processor keeps it: one per idempotency key, whatever happens to its caller. */
export interface StoredCharge {
  idempotencyKey: string;
  /** What the first request under the key asked for (nothing secret), to refuse a different one. */
  fingerprint: string;
  result: ProcessorResult;
  approveAtMs: number | null;
  refunded: boolean;
}
