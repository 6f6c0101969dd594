import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPreference } from '../support/builders.ts';
import { describeBackends } from '../support/test-app.ts';

// The expiry job (run every second by the server) persists EXPIRED on preferences whose time
// has passed, so lists, filters and the checkout agree with what reads already answer.

describeBackends('Preference expiry job', (build) => {
  test('stores EXPIRED once the expiration date has passed, and leaves open ones alone', async (t) => {
    const { app, cobro, merchant, clock } = await build(t);
    clock.set('2026-03-01T09:30:00Z');
    const due = await createPreference(app, merchant, { expiration_date: '2026-03-01T09:40:00Z' });
    const later = await createPreference(app, merchant, { expiration_date: '2026-03-01T11:00:00Z' });
    clock.set('2026-03-01T09:40:00Z');
    await cobro.orderSweeps.expireDue();
    const stored = async (id: string) => (await cobro.database.uow.read.preferences.getById(id))?.status;
    assert.equal(await stored(due.id), 'EXPIRED');
    assert.equal(await stored(later.id), 'OPEN');
  });
});
