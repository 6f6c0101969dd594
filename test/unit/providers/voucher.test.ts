import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { buildCashVoucher, isValidVoucherReference, mod10CheckDigit } from '../../../src/providers/cash/voucher.ts';

describe('mod10CheckDigit', () => {
  test('gives 3 for the textbook Luhn example 7992739871', () => {
    // Wikipedia, "Luhn algorithm": the check digit of 7992739871 is 3.
    assert.equal(mod10CheckDigit('7992739871'), '3');
  });

  test('reproduces the last digit of public test card numbers', () => {
    for (const pan of [
      '4242424242424242',
      '5555555555554444',
      '378282246310005',
      '6011111111111117',
      '3566002020360505',
    ]) {
      assert.equal(mod10CheckDigit(pan.slice(0, -1)), pan.slice(-1), pan);
    }
  });

  test('rejects empty or non-digit input', () => {
    assert.throws(() => mod10CheckDigit(''), RangeError);
    assert.throws(() => mod10CheckDigit('12a'), RangeError);
  });
});

describe('isValidVoucherReference', () => {
  test('catches any single mistyped digit', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
        fc.nat(15),
        fc.integer({ min: 1, max: 9 }),
        (seq, pos, delta) => {
          const { reference } = buildCashVoucher({
            orderId: 'o',
            amountMinor: 1n,
            currency: 'BRL',
            dueDate: new Date('2026-02-01T00:00:00Z'),
            sequence: seq,
          });
          assert.equal(isValidVoucherReference(reference), true);
          const typo =
            reference.slice(0, pos) + String((Number(reference.charAt(pos)) + delta) % 10) + reference.slice(pos + 1);
          assert.equal(isValidVoucherReference(typo), false);
        },
      ),
    );
  });

  test('rejects references of the wrong length or with non-digits', () => {
    assert.equal(isValidVoucherReference('000000000000042'), false);
    assert.equal(isValidVoucherReference('00000000000004 2'), false);
  });
});

describe('buildCashVoucher', () => {
  const input = {
    orderId: 'ord_123',
    amountMinor: 1234n,
    currency: 'BRL',
    dueDate: new Date('2026-01-31T15:00:00Z'),
    sequence: 42,
  };

  test('builds a 16-digit reference and a 36-digit barcode with due date and amount', () => {
    const voucher = buildCashVoucher(input);
    // Luhn over 000000000000042: 2 doubled is 4, plus 4, sum 8, check digit 2.
    assert.equal(voucher.reference, '0000000000000422');
    assert.deepEqual(voucher.barcode, { format: 'ITF', value: '0000000000000422' + '20260131' + '000000001234' });
    assert.equal(voucher.amountMinor, 1234n);
    assert.equal(voucher.currency, 'BRL');
    assert.equal(voucher.orderId, 'ord_123');
    assert.equal(voucher.dueDate.toISOString(), '2026-01-31T15:00:00.000Z');
  });

  test('gives the same voucher for a number or a bigint sequence', () => {
    assert.deepEqual(buildCashVoucher(input), buildCashVoucher({ ...input, sequence: 42n }));
  });

  test('keeps the largest sequence and amount without losing digits', () => {
    const voucher = buildCashVoucher({ ...input, sequence: 10n ** 15n - 1n, amountMinor: 10n ** 12n - 1n });
    assert.equal(voucher.reference.slice(0, 15), '9'.repeat(15));
    assert.ok(voucher.barcode.value.endsWith('9'.repeat(12)));
    assert.equal(voucher.barcode.value.length % 2, 0);
  });

  test('does not share the caller Date object', () => {
    const voucher = buildCashVoucher(input);
    voucher.dueDate.setUTCFullYear(2000);
    assert.equal(input.dueDate.getUTCFullYear(), 2026);
  });

  test('rejects out-of-range sequences and amounts and malformed currency, date or order id', () => {
    assert.throws(() => buildCashVoucher({ ...input, sequence: -1 }), /sequence/);
    assert.throws(() => buildCashVoucher({ ...input, sequence: 1.5 }), /sequence/);
    assert.throws(() => buildCashVoucher({ ...input, sequence: 10n ** 15n }), /sequence/);
    assert.throws(() => buildCashVoucher({ ...input, amountMinor: 0n }), /amountMinor/);
    assert.throws(() => buildCashVoucher({ ...input, amountMinor: 10n ** 12n }), /amountMinor/);
    assert.throws(() => buildCashVoucher({ ...input, currency: 'R$' }), /currency/);
    assert.throws(() => buildCashVoucher({ ...input, dueDate: new Date('nope') }), /dueDate/);
    assert.throws(() => buildCashVoucher({ ...input, orderId: ' ' }), /orderId/);
  });
});
