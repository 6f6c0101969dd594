import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { signedInMember } from '../../support/dashboard-client.ts';
import type { TestApp, TestMerchant } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';

/** The test merchant's data (its key is a test key). */
const T = '/dashboard/test';

const signedIn = (ctx: TestApp, role: string, merchantId = ctx.merchant.id) =>
  signedInMember(ctx, role, { merchantId });

async function api(
  ctx: TestApp,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  merchant: TestMerchant = ctx.merchant,
) {
  const res = await ctx.app.inject({ method, url, headers: merchant.authHeaders });
  assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A subscriber made the way a payer would: a SUBSCRIPTION checkout, paid through the test helper. */
async function subscribe(
  ctx: TestApp,
  planId: string,
  options: { merchant?: TestMerchant; methods?: string[]; payer?: Record<string, string> } = {},
): Promise<{ id: string; orderId: string }> {
  const merchant = options.merchant ?? ctx.merchant;
  const pref = await createPreference(ctx.app, merchant, {
    type: 'SUBSCRIPTION',
    payment_link_id: planId,
    payment_method_types: options.methods ?? ['CARD'],
  });
  const paid = await ctx.app.inject({
    method: 'POST',
    url: `/v1/test_helpers/checkout_preferences/${pref.id}/pay`,
    headers: merchant.authHeaders,
    payload: {
      payer: options.payer ?? { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza' },
    },
  });
  assert.equal(paid.statusCode, 201, paid.body);
  const order = paid.json();
  assert.equal(order.status, 'CLOSED', paid.body);
  return { id: String(order.recurrent_payment_id), orderId: String(order.id) };
}

const PLAN_FORM = {
  title: 'Gold',
  amount: '12.50',
  currency: 'USD',
  interval_type: 'MONTH',
  interval_count: '12',
  trial_interval_type: 'DAY',
  trial_interval_count: '7',
  signup_fee_amount: '5',
};

/** The audit entries of subscription actions (sign-in and team entries left out), newest first. */
async function auditActions(ctx: TestApp): Promise<string[]> {
  return (await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null))
    .map((e) => e.action)
    .filter((a) => a.startsWith('payment_link.') || a.startsWith('recurrent_payment.'));
}

describeBackends('dashboard subscriptions', (build) => {
  test('an owner creates a plan through the form; the API shows it and its page shows the public link with a QR code', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    const form = await owner.get(`${T}/payment_links/new`);
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, /<label for="amount">Amount per period<\/label>/);
    const created = await owner.post(`${T}/payment_links`, PLAN_FORM);
    assert.equal(created.statusCode, 303, created.body);
    const id = /^\/dashboard\/test\/payment_links\/([A-Za-z0-9]{22})\?created=1$/.exec(
      String(created.headers.location),
    )?.[1];
    assert.ok(id, String(created.headers.location));

    const plan = await api(ctx, 'GET', `/v1/payment_links/${id}`);
    assert.deepEqual(
      {
        title: plan.title,
        amount: plan.amount,
        currency: plan.currency,
        interval_type: plan.interval_type,
        interval_count: plan.interval_count,
        trial_interval_type: plan.trial_interval_type,
        trial_interval_count: plan.trial_interval_count,
        signup_fee_amount: plan.signup_fee_amount,
        status: plan.status,
        version: plan.version,
      },
      {
        title: 'Gold',
        amount: 12.5,
        currency: 'USD',
        interval_type: 'MONTH',
        interval_count: 12,
        trial_interval_type: 'DAY',
        trial_interval_count: 7,
        signup_fee_amount: 5,
        status: 'ACTIVE',
        version: 1,
      },
    );

    const page = await owner.get(String(created.headers.location));
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, new RegExp(`data-test="public-link"[^>]*>http://127.0.0.1:3000/l/${id}</a>`));
    assert.match(page.body, /<div class="qr"><svg role="img" aria-label="QR code of the link to Gold"/);
    assert.match(page.body, /data-test="plan-version">Version 1</);
    assert.match(page.body, /data-test="price">\$12\.50 \/ month</);
    assert.match(page.body, /data-test="edit-plan"/);

    const list = await owner.get(`${T}/subscriptions`);
    assert.equal(list.statusCode, 200);
    assert.match(list.body, new RegExp(`<a href="/dashboard/test/payment_links/${id}">Gold</a>`));
    assert.match(
      list.body,
      new RegExp(`href="/dashboard/test/recurrent_payments\\?plan=${id}" data-test="subscribers">0<`),
    );
    assert.deepEqual(await auditActions(ctx), ['payment_link.create']);
  });

  test('invalid plan input answers 400 with the message on the form, keeps what was typed, and creates nothing', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'admin');
    await owner.get(`${T}/payment_links/new`);
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ amount: '0.01' }, 'amount', /Amount per period must be between 0\.1 and 3000 USD/],
      [{ amount: 'twelve' }, 'amount', /Amount per period must be a number, like 9\.99\./],
      [{ title: '   ' }, 'title', /Title must not be empty\./],
      [{ trial_interval_count: '' }, 'trial_interval_count', /Trial length and trial unit must be given together\./],
      [{ interval_count: '0' }, 'interval_count', /Number of periods must be a whole number from 1 to 1000/],
      [{ signup_fee_amount: '5000' }, 'signup_fee_amount', /Sign-up fee must be between 0\.1 and 3000 USD/],
      [{ currency: 'XXX' }, 'currency', /Currency must be one of the supported currencies/],
    ];
    for (const [change, field, message] of cases) {
      const res = await owner.post(`${T}/payment_links`, { ...PLAN_FORM, ...change });
      assert.equal(res.statusCode, 400, `${JSON.stringify(change)}: ${res.body.slice(0, 300)}`);
      assert.match(res.body, /data-test="problems"/);
      assert.match(res.body, new RegExp(`data-test="error-${field}">[^<]*${message.source}`), JSON.stringify(change));
      assert.match(res.body, new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
    }
    const kept = await owner.post(`${T}/payment_links`, { ...PLAN_FORM, title: 'Kept title', amount: '0.01' });
    assert.match(kept.body, /id="title" name="title" type="text" value="Kept title"/);
    const plans = await api(ctx, 'GET', '/v1/payment_links');
    assert.deepEqual(plans.data, []);
    assert.deepEqual(await auditActions(ctx), []);
  });

  test('editing a plan makes a new version the API shows, while its subscriber keeps the terms bought', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    const link = await createPaymentLink(ctx.app, ctx.merchant, { title: 'Silver', amount: 9.99 });
    const sub = await subscribe(ctx, link.id);

    const form = await owner.get(`${T}/payment_links/${link.id}/edit`);
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, /data-test="version-note">Saving creates version 2 of this plan/);
    assert.match(form.body, /Current subscribers keep the terms they signed up on/);
    assert.match(form.body, /id="amount" name="amount" type="text" value="9.99"/);
    assert.match(form.body, /<input type="hidden" name="version" value="1">/);

    const fields = {
      version: '1',
      title: 'Silver 2026',
      amount: '15',
      interval_type: 'MONTH',
      interval_count: '12',
      trial_interval_type: '',
      trial_interval_count: '',
      signup_fee_amount: '',
    };
    const saved = await owner.post(`${T}/payment_links/${link.id}/edit`, fields);
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, `${T}/payment_links/${link.id}?saved=1`);
    const plan = await api(ctx, 'GET', `/v1/payment_links/${link.id}`);
    assert.equal(plan.version, 2);
    assert.equal(plan.amount, 15);
    assert.equal(plan.title, 'Silver 2026');
    const rec = await api(ctx, 'GET', `/v1/recurrent_payments/${sub.id}`);
    assert.equal(rec.amount, 9.99, JSON.stringify(rec));
    assert.equal(rec.plan_version, 1);

    const page = await owner.get(String(saved.headers.location));
    assert.match(page.body, /Saved as version 2\. Current subscribers keep their terms\./);
    assert.match(page.body, /data-test="plan-version">Version 2</);

    // The same values again change nothing; a form opened before someone else's edit is refused.
    await owner.get(`${T}/payment_links/${link.id}/edit`);
    const same = await owner.post(`${T}/payment_links/${link.id}/edit`, { ...fields, version: '2' });
    assert.equal(same.headers.location, `${T}/payment_links/${link.id}?unchanged=1`);
    const stale = await owner.post(`${T}/payment_links/${link.id}/edit`, { ...fields, version: '1', amount: '20' });
    assert.equal(stale.statusCode, 409, stale.body);
    assert.match(stale.body, /changed while you were editing it: it is now at version 2/);
    assert.equal((await api(ctx, 'GET', `/v1/payment_links/${link.id}`)).amount, 15);
    const invalid = await owner.post(`${T}/payment_links/${link.id}/edit`, { ...fields, version: '2', amount: '0' });
    assert.equal(invalid.statusCode, 400);
    assert.match(invalid.body, /Amount per period must be greater than 0/);
    assert.deepEqual(await auditActions(ctx), ['payment_link.update']);
  });

  test('archiving asks on a confirmation page first; an archived plan has no edit button and cannot be edited', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    const link = await createPaymentLink(ctx.app, ctx.merchant, { title: 'Bronze' });
    const confirm = await owner.get(`${T}/payment_links/${link.id}/archive`);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /<h1>Archive plan “Bronze”\?<\/h1>/);
    assert.match(confirm.body, /<button type="submit" data-test="confirm-archive">Archive plan<\/button>/);
    assert.equal((await api(ctx, 'GET', `/v1/payment_links/${link.id}`)).status, 'ACTIVE', 'the GET changes nothing');

    const archived = await owner.post(`${T}/payment_links/${link.id}/archive`, {});
    assert.equal(archived.statusCode, 303, archived.body);
    assert.equal((await api(ctx, 'GET', `/v1/payment_links/${link.id}`)).status, 'ARCHIVED');
    const page = await owner.get(String(archived.headers.location));
    assert.match(page.body, /Plan archived\./);
    assert.match(page.body, /data-status="ARCHIVED"/);
    assert.doesNotMatch(page.body, /data-test="edit-plan"|data-test="archive-plan"/);
    const edit = await owner.get(`${T}/payment_links/${link.id}/edit`);
    assert.equal(edit.statusCode, 409);
    assert.match(edit.body, /archived and can no longer be edited/);
    const post = await owner.post(`${T}/payment_links/${link.id}/edit`, {
      version: '1',
      title: 'Again',
      amount: '1',
      interval_type: 'MONTH',
    });
    assert.equal(post.statusCode, 409);
    assert.equal((await api(ctx, 'GET', `/v1/payment_links/${link.id}`)).title, 'Bronze');
    assert.deepEqual(await auditActions(ctx), ['payment_link.archive']);
  });

  test('plans show their subscribers and MRR; the subscriber list filters by status and plan and pages with a cursor', async (t) => {
    const ctx = await build(t);
    const viewer = await signedIn(ctx, 'viewer');
    const monthly = await createPaymentLink(ctx.app, ctx.merchant, {
      title: 'Monthly',
      amount: 9.99,
      interval_type: 'MONTH',
    });
    const yearly = await createPaymentLink(ctx.app, ctx.merchant, {
      title: 'Yearly',
      amount: 120,
      interval_type: 'YEAR',
    });
    const a = await subscribe(ctx, monthly.id, {
      payer: { email: 'a@example.com', first_name: 'Alma', last_name: 'A' },
    });
    await subscribe(ctx, monthly.id, { payer: { email: 'b@example.com', first_name: 'Bea', last_name: 'B' } });
    const c = await subscribe(ctx, monthly.id, {
      payer: { email: 'c@example.com', first_name: 'Caio', last_name: 'C' },
    });
    const d = await subscribe(ctx, yearly.id, {
      payer: { email: 'd@example.com', first_name: 'Dora', last_name: 'D' },
    });
    await api(ctx, 'DELETE', `/v1/recurrent_payments/${c.id}`);

    const plans = await viewer.get(`${T}/subscriptions`);
    assert.equal(plans.statusCode, 200);
    const row = (id: string) => new RegExp(`<tr data-plan="${id}">[\\s\\S]*?</tr>`).exec(plans.body)?.[0] ?? '';
    assert.match(row(monthly.id), /data-test="subscribers">2</);
    assert.match(row(monthly.id), /data-test="mrr">\$19\.98</);
    assert.match(row(yearly.id), /data-test="subscribers">1</);
    assert.match(row(yearly.id), /data-test="mrr">\$10\.00</, 'a yearly 120.00 is 10.00 a month');
    const planPage = await viewer.get(`${T}/payment_links/${monthly.id}`);
    assert.match(planPage.body, /data-test="subscriber-count">2</);
    assert.match(planPage.body, /data-test="plan-mrr">\$19\.98</);
    assert.match(planPage.body, /data-test="status-counts">ACTIVE: 2, CANCELED: 1</);

    const all = await viewer.get(`${T}/recurrent_payments`);
    assert.equal(all.statusCode, 200);
    const ids = (body: string) => [...body.matchAll(/data-recurrent-payment="([A-Za-z0-9]+)"/g)].map((m) => m[1]);
    assert.equal(ids(all.body).length, 4);
    const rowOf = (body: string, id: string) =>
      new RegExp(`<tr data-recurrent-payment="${id}">[\\s\\S]*?</tr>`).exec(body)?.[0] ?? '';
    const rec = await api(ctx, 'GET', `/v1/recurrent_payments/${a.id}`);
    assert.match(rowOf(all.body, a.id), /data-status="ACTIVE"/);
    assert.match(rowOf(all.body, a.id), new RegExp(`<time datetime="${rec.next_payment_date.replace('Z', '.000Z')}">`));
    assert.match(rowOf(all.body, a.id), />Alma A</);
    assert.match(rowOf(all.body, c.id), /data-status="CANCELED"/);

    assert.deepEqual(ids((await viewer.get(`${T}/recurrent_payments?status=CANCELED`)).body), [c.id]);
    assert.deepEqual(ids((await viewer.get(`${T}/recurrent_payments?plan=${yearly.id}`)).body), [d.id]);
    assert.deepEqual(
      ids((await viewer.get(`${T}/recurrent_payments?plan=${monthly.id}&status=ACTIVE`)).body).length,
      2,
    );
    assert.equal((await viewer.get(`${T}/recurrent_payments?status=NOPE`)).statusCode, 400);

    // Cursor paging: 2 at a time, newest first, every subscription once.
    const seen: string[] = [];
    let url: string | null = `${T}/recurrent_payments?limit=2`;
    for (let i = 0; url && i < 5; i++) {
      const page = await viewer.get(url);
      assert.equal(page.statusCode, 200, page.body);
      seen.push(...(ids(page.body) as string[]));
      const next = /<a href="([^"]+)" data-test="next-page">/.exec(page.body)?.[1];
      url = next ? next.replaceAll('&amp;', '&').replaceAll('&#61;', '=') : null;
    }
    assert.deepEqual(seen, ids(all.body));
    assert.equal((await viewer.get(`${T}/recurrent_payments?after=garbage`)).statusCode, 400);
  });

  test('the subscriber page shows periods, charges linking to their orders, and the dunning state of a failed renewal', async (t) => {
    const ctx = await build(t);
    const viewer = await signedIn(ctx, 'viewer');
    const link = await createPaymentLink(ctx.app, ctx.merchant, {
      title: 'Revista',
      amount: 30,
      currency: 'BRL',
      interval_type: 'MONTH',
    });
    const sub = await subscribe(ctx, link.id, { methods: ['PIX'] });
    let rec = await api(ctx, 'GET', `/v1/recurrent_payments/${sub.id}`);
    assert.equal(rec.status, 'ACTIVE');

    // The renewal opens before its due date (push methods); the payer lets it lapse.
    const due = Date.parse(rec.next_payment_date);
    const { now } = await ctx.app
      .inject({
        method: 'POST',
        url: '/v1/test_helpers/clock/advance',
        headers: ctx.merchant.authHeaders,
        payload: { seconds: 1 },
      })
      .then((r) => r.json());
    const seconds = Math.ceil((due - 86_400_000 - Date.parse(now)) / 1000);
    await ctx.app.inject({
      method: 'POST',
      url: '/v1/test_helpers/clock/advance',
      headers: ctx.merchant.authHeaders,
      payload: { seconds },
    });
    const orders = await api(ctx, 'GET', `/v1/payment_orders?recurrent_payment_id=${sub.id}`);
    const renewal = orders.data.find((o: { id: string }) => o.id !== sub.orderId);
    assert.ok(renewal, JSON.stringify(orders));
    await api(ctx, 'POST', `/v1/test_helpers/payment_orders/${renewal.id}/expire`);
    rec = await api(ctx, 'GET', `/v1/recurrent_payments/${sub.id}`);
    assert.equal(rec.status, 'UNPAID', JSON.stringify(rec));

    const page = await viewer.get(`${T}/recurrent_payments/${sub.id}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /data-test="subscriber-name">Ana Souza</);
    assert.match(page.body, /data-status="UNPAID"/);
    assert.match(
      page.body,
      /data-test="dunning-state">The payment of period 2 failed 1 time\. Next try: <span data-test="next-retry"><time datetime="/,
    );
    assert.match(page.body, /\(retry 1 of 3\)/);
    assert.match(
      page.body,
      /retried 1, 3, 5 days after its due date; after the last try the subscription is cancelled/,
    );
    const periods = /<table data-test="periods">[\s\S]*?<\/table>/.exec(page.body)?.[0] ?? '';
    assert.match(
      periods,
      new RegExp(
        `<td class="num">2</td>.*Unpaid: 1 failed try</td>\\s*<td><a href="/dashboard/test/payment_orders/${renewal.id}">EXPIRED</a>`,
      ),
    );
    assert.match(
      periods,
      new RegExp(
        `<td class="num">1</td>.*Paid</td>\\s*<td><a href="/dashboard/test/payment_orders/${sub.orderId}">CLOSED</a>`,
      ),
    );
    const charges = /<table data-test="charges">[\s\S]*?<\/table>/.exec(page.body)?.[0] ?? '';
    assert.match(charges, new RegExp(`<a href="/dashboard/test/payment_orders/${sub.orderId}">`));
    assert.match(charges, new RegExp(`<a href="/dashboard/test/payment_orders/${renewal.id}">`));
    assert.match(charges, /Period 2, try 1/);
    assert.match(charges, /First payment/);
    assert.doesNotMatch(page.body, /data-test="cancel-subscription"/, 'a viewer sees no cancel button');
  });

  test('an admin cancels a subscriber through the confirmation page: the API shows CANCELED and the audit log has it', async (t) => {
    const ctx = await build(t);
    const admin = await signedIn(ctx, 'admin');
    const link = await createPaymentLink(ctx.app, ctx.merchant, { title: 'Club' });
    const sub = await subscribe(ctx, link.id);
    const page = await admin.get(`${T}/recurrent_payments/${sub.id}`);
    assert.match(
      page.body,
      new RegExp(`<form method="get" action="/dashboard/test/recurrent_payments/${sub.id}/cancel"`),
    );
    const confirm = await admin.get(`${T}/recurrent_payments/${sub.id}/cancel`);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /<h1>Cancel the subscription of Ana Souza\?<\/h1>/);
    assert.equal(
      (await api(ctx, 'GET', `/v1/recurrent_payments/${sub.id}`)).status,
      'ACTIVE',
      'the GET changes nothing',
    );

    const done = await admin.post(`${T}/recurrent_payments/${sub.id}/cancel`, {});
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(done.headers.location, `${T}/recurrent_payments/${sub.id}?canceled=1`);
    const rec = await api(ctx, 'GET', `/v1/recurrent_payments/${sub.id}`);
    assert.equal(rec.status, 'CANCELED');
    assert.equal(rec.deleted_by, 'merchant');
    const events = await api(ctx, 'GET', '/v1/events?event_type=RECURRENT_PAYMENT.CANCELED');
    assert.deepEqual(
      events.data.map((e: { entity_id: string }) => e.entity_id),
      [sub.id],
      'the same cancellation as the API: its event is emitted',
    );
    const entries = await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null);
    const entry = entries.find((e) => e.action === 'recurrent_payment.cancel');
    assert.ok(entry, JSON.stringify(entries));
    assert.equal(entry.objectId, sub.id);
    assert.equal(entry.actor, admin.email);

    const after = await admin.get(String(done.headers.location));
    assert.match(after.body, /Subscription cancelled\./);
    assert.match(after.body, /data-test="canceled">.* by merchant</);
    assert.doesNotMatch(after.body, /data-test="cancel-subscription"/);
    const again = await admin.get(`${T}/recurrent_payments/${sub.id}/cancel`);
    assert.match(again.body, /data-test="not-cancellable"/);
  });

  for (const role of ['viewer', 'developer']) {
    test(`a ${role} sees plans and subscribers without buttons, and every change answers 403 and changes nothing`, async (t) => {
      const ctx = await build(t);
      const browser = await signedIn(ctx, role);
      const link = await createPaymentLink(ctx.app, ctx.merchant, { title: 'Plan' });
      const sub = await subscribe(ctx, link.id);
      for (const url of [`${T}/subscriptions`, `${T}/payment_links/${link.id}`, `${T}/recurrent_payments/${sub.id}`]) {
        const page = await browser.get(url);
        assert.equal(page.statusCode, 200, url);
        assert.doesNotMatch(page.body, /data-test="(new-plan|edit-plan|archive-plan|cancel-subscription)"/, url);
      }
      for (const url of [
        `${T}/payment_links/new`,
        `${T}/payment_links/${link.id}/edit`,
        `${T}/payment_links/${link.id}/archive`,
        `${T}/recurrent_payments/${sub.id}/cancel`,
      ]) {
        assert.equal((await browser.get(url)).statusCode, 403, url);
      }
      const posts: [string, Record<string, string>][] = [
        [`${T}/payment_links`, PLAN_FORM],
        [`${T}/payment_links/${link.id}/edit`, { ...PLAN_FORM, version: '1', amount: '99' }],
        [`${T}/payment_links/${link.id}/archive`, {}],
        [`${T}/recurrent_payments/${sub.id}/cancel`, {}],
      ];
      for (const [url, fields] of posts) {
        // Read a page first: the POST carries a valid CSRF token, so only the role refuses it.
        const res = await browser.submit(`${T}/subscriptions`, url, fields);
        assert.equal(res.statusCode, 403, `${url}: ${res.body.slice(0, 200)}`);
      }
      const plan = await api(ctx, 'GET', `/v1/payment_links/${link.id}`);
      assert.deepEqual([plan.status, plan.version], ['ACTIVE', 1]);
      assert.equal((await api(ctx, 'GET', '/v1/payment_links')).data.length, 1);
      assert.equal((await api(ctx, 'GET', `/v1/recurrent_payments/${sub.id}`)).status, 'ACTIVE');
      assert.deepEqual(await auditActions(ctx), []);
    });
  }

  test("another merchant's plans and subscribers, and the other mode's, answer 404 like unknown ids, and nothing changes", async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    const other = await ctx.createMerchant('test');
    const theirPlan = await createPaymentLink(ctx.app, other, { title: 'Theirs' });
    const theirSub = await subscribe(ctx, theirPlan.id, { merchant: other });
    const ourPlan = await createPaymentLink(ctx.app, ctx.merchant, { title: 'Ours' });
    const ourSub = await subscribe(ctx, ourPlan.id);
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';

    const gets = (base: string, plan: string, sub: string) => [
      `${base}/payment_links/${plan}`,
      `${base}/payment_links/${plan}/edit`,
      `${base}/payment_links/${plan}/archive`,
      `${base}/recurrent_payments/${sub}`,
      `${base}/recurrent_payments/${sub}/cancel`,
    ];
    for (const url of [
      ...gets(T, theirPlan.id, theirSub.id),
      ...gets(T, unknown, unknown),
      ...gets('/dashboard', ourPlan.id, ourSub.id), // test-mode objects at live-mode addresses
    ]) {
      const res = await owner.get(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(res.body, /There is nothing here\./, url);
    }
    for (const [url, fields] of [
      [`${T}/payment_links/${theirPlan.id}/edit`, { ...PLAN_FORM, version: '1' }],
      [`${T}/payment_links/${theirPlan.id}/archive`, {}],
      [`${T}/recurrent_payments/${theirSub.id}/cancel`, {}],
      [`/dashboard/payment_links/${ourPlan.id}/archive`, {}],
      [`/dashboard/recurrent_payments/${ourSub.id}/cancel`, {}],
    ] as const) {
      assert.equal((await owner.submit(`${T}/subscriptions`, url, fields)).statusCode, 404, url);
    }
    assert.equal((await api(ctx, 'GET', `/v1/payment_links/${theirPlan.id}`, other)).status, 'ACTIVE');
    assert.equal((await api(ctx, 'GET', `/v1/recurrent_payments/${theirSub.id}`, other)).status, 'ACTIVE');
    assert.equal((await api(ctx, 'GET', `/v1/payment_links/${ourPlan.id}`)).status, 'ACTIVE');
    assert.equal((await api(ctx, 'GET', `/v1/recurrent_payments/${ourSub.id}`)).status, 'ACTIVE');

    // Lists show only this merchant's data of the page's mode.
    const testList = await owner.get(`${T}/recurrent_payments`);
    assert.match(testList.body, new RegExp(ourSub.id));
    assert.doesNotMatch(testList.body, new RegExp(theirSub.id));
    const liveList = await owner.get('/dashboard/subscriptions');
    assert.equal(liveList.statusCode, 200);
    assert.doesNotMatch(liveList.body, /Ours|Theirs/);
    assert.doesNotMatch((await owner.get(`${T}/subscriptions`)).body, /Theirs/);
    assert.deepEqual(await auditActions(ctx), []);
  });

  test('plan titles and payer names are escaped on every page (stored XSS)', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    const title = `<script>alert("plan")</script><img src=x onerror=alert(1)>`;
    const created = await owner.post(`${T}/payment_links`, { ...PLAN_FORM, title });
    assert.equal(created.statusCode, 303, created.body);
    const planId = String(/payment_links\/([A-Za-z0-9]+)/.exec(String(created.headers.location))?.[1]);
    const sub = await subscribe(ctx, planId, {
      payer: {
        email: 'x@example.com',
        first_name: '<script>alert("payer")</script>',
        last_name: '"><svg onload=alert(2)>',
      },
    });
    const pages = [
      `${T}/subscriptions`,
      `${T}/payment_links/${planId}`,
      `${T}/payment_links/${planId}/edit`,
      `${T}/payment_links/${planId}/archive`,
      `${T}/recurrent_payments`,
      `${T}/recurrent_payments?plan=${planId}`,
      `${T}/recurrent_payments/${sub.id}`,
      `${T}/recurrent_payments/${sub.id}/cancel`,
    ];
    for (const url of pages) {
      const page = await owner.get(url);
      assert.equal(page.statusCode, 200, url);
      assert.doesNotMatch(page.body, /<script>alert|<img src=x|<svg onload/, url);
      assert.match(page.body, /&lt;script&gt;alert/, `${url} shows the text, escaped`);
    }
    // A refused form shows the typed title again, escaped.
    const refused = await owner.post(`${T}/payment_links`, { ...PLAN_FORM, title, amount: 'x' });
    assert.equal(refused.statusCode, 400);
    assert.doesNotMatch(refused.body, /<script>alert|<img src=x/);
  });
});
