import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DomainEvent } from '../../src/domain/events/event.ts';
import type { Mode } from '../../src/domain/merchants/merchant.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import type { WebhookEndpoint } from '../../src/domain/webhooks/webhook.ts';
import { describeBackends } from '../support/test-app.ts';

// Recording an event also counts its merchant's enabled webhook endpoints (one statement), which
// is what lets publishing skip the endpoint query for merchants without any.

function event(merchantId: string, mode: Mode): DomainEvent {
  return {
    id: newId(),
    merchantId,
    mode,
    eventType: 'PAYMENT_ORDER.CLOSED',
    entityType: 'PAYMENT_ORDER',
    entityId: newId(),
    checkoutPreferenceId: null,
    sequence: 1,
    createdAt: 1_000,
    payload: '{}',
  };
}

function endpoint(merchantId: string, mode: Mode, enabled = true): WebhookEndpoint {
  return {
    id: newId(),
    merchantId,
    mode,
    url: 'https://merchant.example/hooks',
    eventTypes: null,
    enabled,
    disabledReason: enabled ? null : 'turned off',
    description: null,
    createdAt: 1_000,
    updatedAt: 1_000,
  };
}

describeBackends('Recording an event', (build) => {
  test('answers how many endpoints its merchant has enabled in its mode, and none for a merchant without any', async (t) => {
    const { cobro, merchant } = await build(t);
    const other = await cobro.services.merchants.createMerchant('Other shop', 'test');
    const insert = (e: DomainEvent) => cobro.database.uow.transaction((repos) => repos.events.insert(e));

    assert.equal(await insert(event(merchant.id, 'test')), 0);

    const deleted = endpoint(merchant.id, 'test');
    await cobro.database.uow.transaction(async (repos) => {
      await repos.webhookEndpoints.insert(endpoint(merchant.id, 'test'));
      await repos.webhookEndpoints.insert(endpoint(merchant.id, 'test'));
      await repos.webhookEndpoints.insert(endpoint(merchant.id, 'test', false));
      await repos.webhookEndpoints.insert(deleted);
      await repos.webhookEndpoints.insert(endpoint(merchant.id, 'live'));
      await repos.webhookEndpoints.insert(endpoint(other.merchantId, 'test'));
      await repos.webhookEndpoints.delete(merchant.id, 'test', deleted.id, 2_000);
    });

    assert.equal(await insert(event(merchant.id, 'test')), 2);
    assert.equal(await insert(event(merchant.id, 'live')), 1);
    assert.equal(await insert(event(other.merchantId, 'test')), 1);
    assert.equal(await insert(event(other.merchantId, 'live')), 0);
  });
});
