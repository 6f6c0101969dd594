import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskSecret } from '../../../src/domain/connectors/connection.ts';

test('a key as the dashboard shows it: its kind and mode and its last four characters, never more', () => {
  assert.equal(maskSecret('sk_test_4eC39HqLyjWDarjtT1zdp7dc'), 'sk_test_…p7dc');
  assert.equal(maskSecret('rk_live_51Habcdefghijklmnopqrstuv'), 'rk_live_…stuv');
  // Too short to give four characters away: only its kind and mode.
  assert.equal(maskSecret('sk_test_abcdefgh'), 'sk_test_…');
  // A shape it does not know: nothing of the start.
  assert.equal(maskSecret('secret-of-another-processor-0042'), '…0042');
});
