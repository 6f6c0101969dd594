import type { CardBrand } from '../../domain/payment-methods/card-brand.ts';
import type { TestCardOutcome } from '../../domain/payment-methods/test-card-charge.ts';

/** One row of the published test card table: a card number and how the test processor treats it. */
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
