import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  generateRecoveryCodes,
  hashRecoveryCode,
  matchRecoveryCode,
} from '../../../../src/domain/dashboard/recovery-codes.ts';

const SHAPE = /^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/;

describe('generateRecoveryCodes', () => {
  test('makes ten distinct codes shaped xxxx-xxxx-xxxx', () => {
    const codes = generateRecoveryCodes();
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) {
      assert.match(code, SHAPE);
    }
  });

  test('never uses the look-alike letters i, l, o or u', () => {
    const all = Array.from({ length: 50 }, () => generateRecoveryCodes().join('')).join('');
    assert.doesNotMatch(all, /[ilou]/);
  });

  test('draws from a 32-symbol alphabet, so 12 symbols carry 60 bits', () => {
    const symbols = new Set(
      Array.from({ length: 100 }, () => generateRecoveryCodes().join(''))
        .join('')
        .replace(/-/g, ''),
    );
    // 12,000 draws from 32 symbols: every symbol shows up (missing one has probability ~1e-163).
    assert.equal(symbols.size, 32);
    assert.ok(12 * Math.log2(symbols.size) >= 60);
  });

  test('makes different codes on every call', () => {
    const first = generateRecoveryCodes();
    const second = generateRecoveryCodes();
    assert.equal(new Set([...first, ...second]).size, 20);
  });
});

describe('hashRecoveryCode', () => {
  test('is the SHA-256 hex digest of the normalized code', () => {
    assert.equal(hashRecoveryCode('abcd-efgh-jkmn'), createHash('sha256').update('abcdefghjkmn').digest('hex'));
  });

  test('ignores case, dashes and spaces', () => {
    const stored = hashRecoveryCode('7k2m-9pqr-x4tz');
    for (const typed of ['7K2M-9PQR-X4TZ', '7k2m9pqrx4tz', ' 7k2m 9pqr x4tz ', '7k2m–9pqr—x4tz', '7K2M 9PQR-X4TZ']) {
      assert.equal(hashRecoveryCode(typed), stored, typed);
    }
  });

  test('reads o as 0 and i or l as 1', () => {
    assert.equal(hashRecoveryCode('o1o1-iiii-llll'), hashRecoveryCode('0101-1111-1111'));
  });

  test('gives different digests for different codes', () => {
    assert.notEqual(hashRecoveryCode('aaaa-aaaa-aaaa'), hashRecoveryCode('aaaa-aaaa-aaab'));
  });
});

describe('matchRecoveryCode', () => {
  const codes = generateRecoveryCodes();
  const hashes = codes.map(hashRecoveryCode);

  test('returns the index of the matching stored digest', () => {
    codes.forEach((code, index) => {
      assert.equal(matchRecoveryCode(code, hashes), index, code);
    });
  });

  test('matches a code typed in upper case without dashes', () => {
    const third = codes[2] ?? '';
    assert.equal(matchRecoveryCode(third.toUpperCase().replace(/-/g, ''), hashes), 2);
  });

  test('returns -1 for a code that is not stored', () => {
    const other = generateRecoveryCodes()[0] ?? '';
    assert.equal(matchRecoveryCode(other, hashes), -1);
  });

  test('returns -1 once the matched digest has been removed (one use only)', () => {
    const first = codes[0] ?? '';
    const remaining = hashes.filter((_, index) => index !== matchRecoveryCode(first, hashes));
    assert.equal(matchRecoveryCode(first, remaining), -1);
  });

  test('returns -1 for input that cannot be a code', () => {
    for (const input of ['', '123456', 'abcd-efgh', 'abcd-efgh-jkmn-pqrs', 'uuuu-uuuu-uuuu', '!!!!-!!!!-!!!!']) {
      assert.equal(matchRecoveryCode(input, hashes), -1, input);
    }
  });

  test('returns -1 when nothing is stored and skips malformed stored digests', () => {
    const first = codes[0] ?? '';
    assert.equal(matchRecoveryCode(first, []), -1);
    assert.equal(matchRecoveryCode(first, ['', 'not-a-digest', hashRecoveryCode(first)]), 2);
  });
});
