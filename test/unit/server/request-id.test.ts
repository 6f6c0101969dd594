import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { requestId, requestIdPrefix } from '../../../src/server/server.ts';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

test('a request id never holds 13 digits in a row, so no log scanner takes it for a card number', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom(...BASE62), minLength: 22, maxLength: 22 }),
      fc.maxSafeNat(),
      (random, counter) => {
        const id = requestId(requestIdPrefix(random), counter);
        assert.match(id, /^[A-Za-z0-9]{22}$/);
        assert.doesNotMatch(id, /[0-9]{13}/, id);
      },
    ),
    // The random ids that end their first ten characters in a digit, where this went wrong.
    { examples: [['Vv6o9fKHp4000000000000', 6]] },
  );
});
