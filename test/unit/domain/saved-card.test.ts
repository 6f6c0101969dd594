import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IntentView } from '../../../src/domain/connectors/card-connector.ts';
import { parseSavedCard, savedCardToken } from '../../../src/domain/connectors/saved-card.ts';

const intent = (customerId: string | null, paymentMethodId: string | null): IntentView => ({
  id: 'pi_1',
  status: 'succeeded',
  outcome: 'SETTLE',
  amount: null,
  received: null,
  clientSecret: null,
  orderId: null,
  preferenceId: null,
  failure: null,
  customerId,
  paymentMethodId,
});

test('a card kept at Stripe is recorded as stripe:<customer>:<payment method> and read back as such', () => {
  const token = savedCardToken('stripe', intent('cus_Ana', 'pm_Visa'));
  assert.equal(token, 'stripe:cus_Ana:pm_Visa');
  assert.deepEqual(parseSavedCard(token), { provider: 'stripe', customerId: 'cus_Ana', paymentMethodId: 'pm_Visa' });
});

test('an intent without a customer or a card saves nothing (a one-time payment)', () => {
  assert.equal(savedCardToken('stripe', intent(null, 'pm_Visa')), null);
  assert.equal(savedCardToken('stripe', intent('cus_Ana', null)), null);
});

test('tokens of the built-in test processor, and anything else, are not read as a processor’s saved card', () => {
  for (const token of [
    null,
    '',
    'tok_0123456789abcdef01234567',
    'pix:cus:pm',
    'stripe:cus_Ana',
    'stripe::pm',
    'stripe:a:b:c',
  ]) {
    assert.equal(parseSavedCard(token), null, String(token));
  }
});
