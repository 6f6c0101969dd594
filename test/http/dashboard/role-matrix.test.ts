import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Action, Role } from '../../../src/domain/dashboard/roles.ts';
import { ROLES } from '../../../src/domain/dashboard/roles.ts';
import { type DashboardClient, signedInMember } from '../../support/dashboard-client.ts';
import { describeBackends } from '../../support/test-app.ts';

/** The roles as the issue defines them, written out here so the test does not ask the code it checks. */
const MAY: Record<Role, readonly Action[]> = {
  owner: ['payments.write', 'plans.write', 'keys.write', 'webhooks.write', 'settings.write', 'team.manage'],
  admin: ['payments.write', 'plans.write', 'keys.write', 'webhooks.write', 'settings.write'],
  developer: ['keys.write', 'webhooks.write'],
  viewer: [],
};
const can = (role: Role, action: Action) => MAY[role].includes(action);
const NO_SUCH = 'NoSuchObject0000000000';

/**
 * Every action the dashboard takes, with the permission it needs. Ids are unknown on purpose:
 * a role that may act gets past the permission check (and then 400 or 404), one that may not
 * gets 403 first, so the table tests the permission and nothing else.
 */
const ACTIONS: [string, Action][] = [
  ['/payments/new', 'payments.write'],
  [`/payment_orders/${NO_SUCH}/refund`, 'payments.write'],
  [`/payment_orders/${NO_SUCH}/confirm`, 'payments.write'],
  [`/recurrent_payments/${NO_SUCH}/cancel`, 'payments.write'],
  ['/payment_links', 'plans.write'],
  [`/payment_links/${NO_SUCH}/edit`, 'plans.write'],
  [`/payment_links/${NO_SUCH}/archive`, 'plans.write'],
  ['/developers/keys', 'keys.write'],
  [`/developers/keys/${NO_SUCH}/revoke`, 'keys.write'],
  ['/webhook_endpoints', 'webhooks.write'],
  [`/webhook_endpoints/${NO_SUCH}/edit`, 'webhooks.write'],
  [`/webhook_endpoints/${NO_SUCH}/disable`, 'webhooks.write'],
  [`/webhook_endpoints/${NO_SUCH}/test`, 'webhooks.write'],
  [`/webhook_endpoints/${NO_SUCH}/rotate`, 'webhooks.write'],
  [`/webhook_endpoints/${NO_SUCH}/delete`, 'webhooks.write'],
  ['/webhook_settings/secret', 'webhooks.write'],
  [`/events/${NO_SUCH}/redeliver`, 'webhooks.write'],
  ['/settings/payments', 'settings.write'],
  ['/settings/profile/logo/remove', 'settings.write'],
  ['/settings/connections/stripe', 'settings.write'],
  ['/settings/connections/stripe/test', 'settings.write'],
  ['/settings/connections/stripe/remove', 'settings.write'],
  ['/settings/connections/pix', 'settings.write'],
  ['/settings/connections/pix/test', 'settings.write'],
  ['/settings/connections/pix/remove', 'settings.write'],
  ['/settings/team/invite', 'team.manage'],
  [`/settings/team/${NO_SUCH}/role`, 'team.manage'],
  [`/settings/team/${NO_SUCH}/remove`, 'team.manage'],
];

/** The pages whose forms a role sees; each form's action must be one the role may take. */
const PAGES = [
  '',
  '/payments',
  '/checkout_preferences',
  '/subscriptions',
  '/recurrent_payments',
  '/developers/keys',
  '/webhook_endpoints',
  '/events',
  '/settings',
  '/settings/profile',
  '/settings/payments',
  '/settings/connections',
];

/** Forms every signed-in person may use: their own session and security. */
const OWN_FORMS = [/^\/dashboard\/logout$/, /^\/dashboard\/merchant$/, /\/settings\/security\//];

describeBackends('dashboard role matrix', (build) => {
  test('every role × every action: allowed past the check, or 403 and hidden from its pages', async (t) => {
    const ctx = await build(t);
    const browsers = new Map<Role, DashboardClient>();
    for (const role of ROLES) {
      const browser = await signedInMember(ctx, role);
      browsers.set(role, browser);
    }
    const wrong: string[] = [];
    for (const role of ROLES) {
      const browser = browsers.get(role) as DashboardClient;
      for (const [path, action] of ACTIONS) {
        await browser.get('/dashboard/test/settings/security');
        const res = await browser.post(`/dashboard/test${path}`, {});
        const allowed = can(role, action);
        if (allowed ? res.statusCode === 403 : res.statusCode !== 403) {
          wrong.push(`${role} POST ${path} (${action}): ${res.statusCode}`);
        }
      }
      for (const page of PAGES) {
        const res = await browser.get(`/dashboard/test${page}`);
        if (res.statusCode !== 200 && res.statusCode !== 403) {
          wrong.push(`${role} GET ${page}: ${res.statusCode}`);
          continue;
        }
        for (const match of res.body.matchAll(/<form method="post" action="([^"]+)"/g)) {
          const action = (match[1] ?? '').replace(/&amp;/g, '&');
          if (OWN_FORMS.some((re) => re.test(action))) {
            continue;
          }
          const needed = ACTIONS.find(
            ([p]) => action === `/dashboard/test${p}` || action.endsWith(p.replace(NO_SUCH, '')),
          );
          if (role === 'viewer') {
            wrong.push(`viewer sees a form to ${action} on ${page || 'home'}`);
          } else if (needed && !can(role, needed[1])) {
            wrong.push(`${role} sees a form to ${action} on ${page || 'home'}`);
          }
        }
      }
    }
    assert.deepEqual(wrong, []);
  });
});

describeBackends('live API keys need the power to move money', (build) => {
  test('a developer makes test keys but not live ones (a live key can refund through the API), and sees no live key form; an admin makes live keys', async (t) => {
    const ctx = await build(t);
    const developer = await signedInMember(ctx, 'developer');
    const list = await developer.get('/dashboard/developers/keys');
    assert.equal(list.statusCode, 200, list.body);
    assert.doesNotMatch(list.body, /data-test="create-key"|data-test="revoke-key"/);
    const live = await developer.post('/dashboard/developers/keys', { name: 'Production' });
    assert.equal(live.statusCode, 403, live.body);
    assert.doesNotMatch(live.body, /ck_live_/);
    await developer.get('/dashboard/test/developers/keys');
    const staging = await developer.post('/dashboard/test/developers/keys', { name: 'Staging' });
    assert.equal(staging.statusCode, 201, staging.body);
    assert.match(staging.body, /ck_test_/);

    const admin = await signedInMember(ctx, 'admin');
    await admin.get('/dashboard/developers/keys');
    const made = await admin.post('/dashboard/developers/keys', { name: 'Production' });
    assert.equal(made.statusCode, 201, made.body);
    assert.match(made.body, /ck_live_[A-Za-z0-9]{24}/);
  });
});
