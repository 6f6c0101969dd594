import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  fromStripeAmount,
  intentOutcome,
  PAYMENT_INTENT_OUTCOMES,
  refundOutcome,
  STRIPE_EVENTS,
  stripeDecimals,
  THREE_DECIMAL_CURRENCIES,
  toStripeAmount,
  ZERO_DECIMAL_CURRENCIES,
} from '../../../src/providers/card/stripe/stripe.mapping.ts';

describe('Stripe amounts: Cobro minor units ↔ Stripe units', () => {
  test("amounts as Stripe's currency guide writes them: ¥500 is 500, $10.00 is 1000, 5.120 KWD is 5120 and 5.124 KWD cannot be sent (docs.stripe.com/currencies)", () => {
    // The guide's own examples, each from Cobro's minor units with the decimals Cobro's table gives the currency.
    assert.equal(toStripeAmount(500n, 'JPY', 0), 500);
    assert.equal(toStripeAmount(1_000n, 'USD', 2), 1_000);
    assert.equal(toStripeAmount(5_120n, 'KWD', 3), 5_120);
    // The guide rounds 5.124 KWD to 5.120 before sending it; Cobro never rounds money, so it refuses it.
    assert.equal(toStripeAmount(5_124n, 'KWD', 3), null);
    // Zero-decimal currencies of the guide's list that Cobro's payers use, in either case.
    for (const code of ['CLP', 'PYG', 'JPY', 'KRW', 'clp']) {
      assert.equal(stripeDecimals(code), 0, code);
    }
    // Two decimals unless the guide says otherwise: the currencies of Cobro's checkouts.
    for (const code of ['BRL', 'MXN', 'ARS', 'COP', 'USD', 'EUR', 'PEN', 'UYU']) {
      assert.equal(stripeDecimals(code), 2, code);
    }
    assert.equal(toStripeAmount(15_990n, 'CLP', 0), 15_990);
    assert.equal(toStripeAmount(4_990n, 'BRL', 2), 4_990);
  });

  test('a currency Cobro counts in more decimals than Stripe converts only when it is whole in Stripe units', () => {
    // A RATES_FILE that gives PYG two decimals: 1 500,00 PYG is 1500 for Stripe; 1 500,50 cannot be charged.
    assert.equal(toStripeAmount(150_000n, 'PYG', 2), 1_500);
    assert.equal(toStripeAmount(150_050n, 'PYG', 2), null);
    assert.equal(fromStripeAmount(1_500, 'PYG', 2), 150_000n);
  });

  test('three-decimal currencies take only multiples of ten thousandths', () => {
    assert.equal(toStripeAmount(12_340n, 'KWD', 3), 12_340);
    assert.equal(toStripeAmount(12_345n, 'KWD', 3), null);
    assert.equal(toStripeAmount(1_234n, 'KWD', 2), 12_340);
  });

  test('property: any amount Stripe can express comes back the same, and means the same money', () => {
    const currency = fc.constantFrom(
      ...ZERO_DECIMAL_CURRENCIES,
      ...THREE_DECIMAL_CURRENCIES,
      'USD',
      'BRL',
      'MXN',
      'EUR',
      'COP',
      'ARS',
    );
    fc.assert(
      fc.property(
        currency,
        fc.integer({ min: 0, max: 6 }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        (code, decimals, minor) => {
          const stripe = toStripeAmount(minor, code, decimals);
          const sd = stripeDecimals(code);
          if (stripe === null) {
            // Refused only when the value has a fraction of Stripe's unit, breaks the three-decimal rule, or is too large.
            const unit = 10n ** BigInt(Math.abs(sd - decimals));
            const exact = sd >= decimals ? minor * unit : minor % unit === 0n ? minor / unit : null;
            assert.ok(
              exact === null || (sd === 3 && exact % 10n !== 0n) || exact > BigInt(Number.MAX_SAFE_INTEGER),
              `${minor} ${code} with ${decimals} decimals was refused`,
            );
            return;
          }
          assert.ok(Number.isSafeInteger(stripe) && stripe >= 0);
          // The same money: minor / 10^decimals === stripe / 10^sd, compared exactly in integers.
          assert.equal(minor * 10n ** BigInt(sd), BigInt(stripe) * 10n ** BigInt(decimals));
          assert.equal(fromStripeAmount(stripe, code, decimals), minor);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('property: an amount from Stripe that Cobro cannot hold exactly is refused, never rounded', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.constantFrom('USD', 'JPY', 'KWD'), (amount, code) => {
        const back = fromStripeAmount(amount, code, 0);
        const sd = stripeDecimals(code);
        if (back === null) {
          assert.notEqual(amount % 10 ** sd, 0);
        } else {
          assert.equal(back * 10n ** BigInt(sd), BigInt(amount));
        }
      }),
    );
    assert.equal(fromStripeAmount(-1, 'USD', 2), null);
    assert.equal(fromStripeAmount(1.5, 'USD', 2), null);
  });
});

describe('Stripe statuses mapped to what Cobro does', () => {
  test('PaymentIntent: succeeded settles, processing waits, a declined try can be tried again, 3-D Secure needs the payer, canceled fails', () => {
    assert.equal(intentOutcome('succeeded'), 'SETTLE');
    assert.equal(intentOutcome('processing'), 'WAIT');
    assert.equal(intentOutcome('requires_payment_method'), 'FAILED_TRY');
    assert.equal(intentOutcome('requires_action'), 'PAYER_ACTION');
    assert.equal(intentOutcome('canceled'), 'FAILED');
    // Only succeeded settles; a status Stripe adds later waits rather than closing or failing an order.
    assert.deepEqual(
      Object.entries(PAYMENT_INTENT_OUTCOMES).filter(([, o]) => o === 'SETTLE'),
      [['succeeded', 'SETTLE']],
    );
    assert.equal(intentOutcome('requires_reauthorization'), 'WAIT');
  });

  test('Refund: succeeded refunds, pending waits, failed and canceled fail', () => {
    assert.equal(refundOutcome('succeeded'), 'REFUNDED');
    assert.equal(refundOutcome('pending'), 'WAIT');
    assert.equal(refundOutcome('requires_action'), 'WAIT');
    assert.equal(refundOutcome('failed'), 'FAILED');
    assert.equal(refundOutcome('canceled'), 'FAILED');
    assert.equal(refundOutcome(null), 'WAIT');
  });

  test('the webhook endpoint subscribes at least to the events INTERFACE §11.1 names, and disputes', () => {
    for (const type of [
      'payment_intent.succeeded',
      'payment_intent.payment_failed',
      'payment_intent.canceled',
      'charge.refunded',
      'charge.dispute.created',
    ]) {
      assert.ok((STRIPE_EVENTS as readonly string[]).includes(type), type);
    }
  });
});
