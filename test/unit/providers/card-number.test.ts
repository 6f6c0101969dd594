import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import fc from 'fast-check';
import type { CardBrand } from '../../../src/domain/payment-methods/card-brand.ts';
import {
  cvcLengthFor,
  detectBrand,
  luhnValid,
  normalizePan,
  parseExpiry,
  validateCard,
} from '../../../src/providers/card/card-number.ts';

// Public test card numbers:
// - Stripe, "Testing" docs (docs.stripe.com/testing, "Cards by brand"): Visa 4242424242424242,
//   Mastercard 5555555555554444, Mastercard 2-series 2223003122003222, Amex 378282246310005,
//   Discover 6011111111111117, Diners 3056930009020004 and 36227206271667 (14 digits), JCB 3566002020360505.
// - Adyen test cards (also used by the Braintree SDK test suites): Elo 5066991111111118,
//   Hipercard 6062828888666688.
const PUBLIC_TEST_CARDS: readonly (readonly [string, CardBrand])[] = [
  ['4242424242424242', 'VISA'],
  ['5555555555554444', 'MASTERCARD'],
  ['2223003122003222', 'MASTERCARD'],
  ['378282246310005', 'AMEX'],
  ['6011111111111117', 'DISCOVER'],
  ['3056930009020004', 'DINERS'],
  ['36227206271667', 'DINERS'],
  ['3566002020360505', 'JCB'],
  ['5066991111111118', 'ELO'],
  ['6062828888666688', 'HIPERCARD'],
];

const NOW = new Date('2026-01-15T12:00:00Z');

function checkDigit(body: string): string {
  for (let d = 0; d <= 9; d++) {
    if (luhnValid(`${body}${d}`)) {
      return String(d);
    }
  }
  throw new Error('unreachable: one of ten digits always completes a Luhn sum');
}

describe('luhnValid', () => {
  test('accepts every public test card number', () => {
    for (const [pan] of PUBLIC_TEST_CARDS) {
      assert.equal(luhnValid(pan), true, pan);
    }
  });

  test('accepts the textbook example 79927398713 and rejects its neighbours', () => {
    // Worked example of the Luhn algorithm (Wikipedia, "Luhn algorithm").
    assert.equal(luhnValid('79927398713'), true);
    for (const wrong of ['79927398710', '79927398711', '79927398712', '79927398714']) {
      assert.equal(luhnValid(wrong), false, wrong);
    }
  });

  test('rejects empty and non-digit input', () => {
    assert.equal(luhnValid(''), false);
    assert.equal(luhnValid('4242 4242 4242 4242'), false);
  });

  test('detects every single-digit typo', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{11,18}$/),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (body, position, delta) => {
          const pan = body + checkDigit(body);
          const i = position % pan.length;
          const changed = String((Number(pan.charAt(i)) + delta) % 10);
          const typo = pan.slice(0, i) + changed + pan.slice(i + 1);
          assert.equal(luhnValid(pan), true);
          assert.equal(luhnValid(typo), false);
        },
      ),
    );
  });
});

describe('detectBrand', () => {
  test('names the network of every public test card number', () => {
    for (const [pan, brand] of PUBLIC_TEST_CARDS) {
      assert.equal(detectBrand(pan), brand, pan);
    }
  });

  test('covers the whole Mastercard 2-series range 2221 to 2720', () => {
    assert.equal(detectBrand('2221000000000009'), 'MASTERCARD');
    assert.equal(detectBrand('2720990000000007'), 'MASTERCARD');
    assert.equal(detectBrand('2220990000000000'), 'UNKNOWN');
    assert.equal(detectBrand('2721000000000000'), 'UNKNOWN');
  });

  test('prefers Elo and Hipercard where their BINs sit inside other networks ranges', () => {
    assert.equal(detectBrand('4011780000000000'), 'ELO');
    assert.equal(detectBrand('6363680000000000'), 'ELO');
    assert.equal(detectBrand('6500310000000000'), 'ELO');
    assert.equal(detectBrand('6500340000000000'), 'DISCOVER');
    assert.equal(detectBrand('3841000000000000000'), 'HIPERCARD');
    assert.equal(detectBrand('3842000000000000'), 'DINERS');
  });

  test('returns UNKNOWN for numbers no network issues', () => {
    assert.equal(detectBrand('9999999999999995'), 'UNKNOWN');
    assert.equal(detectBrand('1'), 'UNKNOWN');
  });
});

describe('cvcLengthFor', () => {
  test('asks for four digits on American Express and three elsewhere', () => {
    assert.equal(cvcLengthFor('AMEX'), 4);
    for (const brand of ['VISA', 'MASTERCARD', 'DISCOVER', 'DINERS', 'JCB', 'ELO', 'HIPERCARD'] as const) {
      assert.equal(cvcLengthFor(brand), 3, brand);
    }
  });
});

describe('normalizePan', () => {
  test('strips spaces and dashes', () => {
    assert.equal(normalizePan(' 4242 4242-4242 4242 '), '4242424242424242');
    assert.equal(normalizePan('3782-822463-10005'), '378282246310005');
  });

  test('returns null for too few or too many digits or other characters', () => {
    assert.equal(normalizePan('42424242424'), null);
    assert.equal(normalizePan('42424242424242424242'), null);
    assert.equal(normalizePan('4242.4242.4242.4242'), null);
    assert.equal(normalizePan(''), null);
  });
});

describe('parseExpiry', () => {
  test('reads MM/YY and MM/YYYY', () => {
    assert.deepEqual(parseExpiry('03/30', NOW), { ok: true, month: 3, year: 2030 });
    assert.deepEqual(parseExpiry('03/2030', NOW), { ok: true, month: 3, year: 2030 });
    assert.deepEqual(parseExpiry(' 3 / 2030 ', NOW), { ok: true, month: 3, year: 2030 });
  });

  test('treats a card as valid through the end of its expiry month', () => {
    assert.deepEqual(parseExpiry('01/26', NOW), { ok: true, month: 1, year: 2026 });
    assert.deepEqual(parseExpiry('12/25', NOW), { ok: false, error: 'expired' });
    assert.deepEqual(parseExpiry('01/26', new Date('2026-01-31T23:59:59Z')), { ok: true, month: 1, year: 2026 });
  });

  test('keeps accepting the old month until it has ended in every time zone', () => {
    assert.equal(parseExpiry('01/26', new Date('2026-02-01T11:59:59Z')).ok, true);
    assert.deepEqual(parseExpiry('01/26', new Date('2026-02-01T12:00:00Z')), { ok: false, error: 'expired' });
  });

  test('calls impossible months, other layouts and far-future years malformed', () => {
    for (const text of ['13/30', '00/30', '0330', '03-30', '03/300', 'ab/cd', '', '03/2099']) {
      assert.deepEqual(parseExpiry(text, NOW), { ok: false, error: 'malformed' }, text);
    }
  });
});

describe('validateCard', () => {
  const good = { number: '4242 4242 4242 4242', expiry: '12/30', cvc: '737', holderName: '  Ana   Souza ' };

  test('returns only brand, last four digits, expiry and holder name for a good card', () => {
    assert.deepEqual(validateCard(good, NOW), {
      ok: true,
      card: { brand: 'VISA', last4: '4242', expMonth: 12, expYear: 2030, holderName: 'Ana Souza' },
    });
  });

  test('accepts every public test card with the right security code length', () => {
    for (const [pan, brand] of PUBLIC_TEST_CARDS) {
      const cvc = brand === 'AMEX' ? '7373' : '737';
      const result = validateCard({ ...good, number: pan, cvc }, NOW);
      assert.equal(result.ok, true, pan);
      if (result.ok) {
        assert.equal(result.card.brand, brand);
        assert.equal(result.card.last4, pan.slice(-4));
      }
    }
  });

  test('reports every invalid field at once', () => {
    const result = validateCard({ number: '4242424242424241', expiry: '12/20', cvc: '12', holderName: '' }, NOW);
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.deepEqual(
        result.errors.map((e) => e.field),
        ['number', 'expiry', 'cvc', 'holderName'],
      );
      assert.match(result.errors[0]?.message ?? '', /not valid/);
      assert.equal(result.errors[1]?.message, 'Card has expired.');
    }
  });

  test('asks American Express cards for a four-digit security code', () => {
    const result = validateCard({ ...good, number: '378282246310005', cvc: '737' }, NOW);
    assert.deepEqual(result, { ok: false, errors: [{ field: 'cvc', message: 'Security code must be 4 digits.' }] });
  });

  test('rejects a Luhn-valid number whose length the network does not issue', () => {
    // 15-digit number in the Visa range with a correct check digit.
    const body = '42424242424242';
    const result = validateCard({ ...good, number: body + checkDigit(body) }, NOW);
    assert.deepEqual(result, {
      ok: false,
      errors: [{ field: 'number', message: 'Card number has the wrong number of digits for Visa.' }],
    });
  });

  test('rejects holder names with digits so a card number typed there is not kept', () => {
    const result = validateCard({ ...good, holderName: '4242424242424242' }, NOW);
    assert.equal(result.ok, false);
    assert.ok(!inspect(result).includes('4242424242424242'));
  });

  test('accepts accented names, apostrophes and hyphens', () => {
    const result = validateCard({ ...good, holderName: "João D'Ávila-Nuñez Jr." }, NOW);
    assert.equal(result.ok, true);
  });

  test('never puts the card number or security code in a result, whatever the input', () => {
    const pan = fc.oneof(
      fc.constantFrom(...PUBLIC_TEST_CARDS.map(([p]) => p)),
      fc.stringMatching(/^[0-9]{12,19}$/),
      fc.stringMatching(/^[0-9 -]{12,25}$/),
    );
    fc.assert(
      fc.property(
        pan,
        fc.constantFrom('12/30', '01/20', '99/99', 'x'),
        fc.constantFrom('737', '7373', '73', '73737'),
        fc.constantFrom('Ana Souza', '', '123'),
        (number, expiry, cvc, holderName) => {
          const digits = number.replace(/[^0-9]/g, '');
          // The last four digits are shown by design; a number whose last four hold '737' (4737,
          // 7371) would look like a leaked security code without being one.
          fc.pre(!digits.slice(-4).includes('737'));
          const text = inspect(validateCard({ number, expiry, cvc, holderName }, NOW), { depth: null });
          if (digits.length >= 12) {
            assert.ok(!text.includes(digits), text);
          }
          assert.ok(!text.includes(number.trim()) || number.trim().length < 12, text);
          assert.ok(!text.includes('737'), text);
        },
      ),
      { numRuns: 500 },
    );
  });
});
