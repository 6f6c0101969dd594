import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startReceiver } from '../../support/webhook-receiver.ts';
import { describeInChromium, fillCard, fillPayer, pay, startCheckout } from '../support/browser.ts';

describeInChromium('[WEBHOOKS] notifications from a checkout paid in Chromium', (browser) => {
  test('[WEBHOOKS]: a card payment on the hosted checkout notifies OPENED and CLOSED at the exact URL, and the handler reads CLOSED back', async (t) => {
    // The merchant's handler: like real client code, it reads the order back on CLOSED and acts only if it says CLOSED.
    const readBack: string[] = [];
    let env: Awaited<ReturnType<typeof startCheckout>> | null = null;
    const receiver = await startReceiver((r) => {
      const body = JSON.parse(r.body) as { event_type: string; payment_order_id: string };
      if (body.event_type === 'PAYMENT_ORDER.CLOSED' && env) {
        const current = env;
        void current.app
          .inject({ url: `/v1/payment_orders/${body.payment_order_id}`, headers: current.merchant.authHeaders })
          .then((res) => readBack.push(`${res.statusCode}:${(res.json() as { status: string }).status}`));
      }
      return { status: 200 };
    });
    t.after(() => receiver.close());
    env = await startCheckout(t, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    const pref = await env.createPreference({
      payment_method_types: ['CARD'],
      custom_urls: { status_changes_webhook: `${receiver.url}/cobro/webhook?token=abc` },
    });

    const page = await (await browser.context(t)).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page, { email: 'ana@example.com', firstName: 'Ana', lastName: 'Souza' });
    await fillCard(page, { number: '4242 4242 4242 4242' });
    await pay(page);
    await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });

    // The delivery job runs as in production, off the request path.
    for (let i = 0; i < 50 && (receiver.received.length < 2 || readBack.length < 1); i++) {
      await env.cobro.delivery.tick();
      await env.cobro.delivery.idle();
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(receiver.received.length, 2, receiver.received.map((r) => r.body).join('\n'));
    const settings = await env.app.inject({ url: '/v1/webhook_settings', headers: env.merchant.authHeaders });
    const verifier = new Webhook((settings.json() as { signing_secret: string }).signing_secret);
    const types: string[] = [];
    for (const r of receiver.received) {
      assert.equal(r.url, '/cobro/webhook?token=abc', 'the exact URL, query string kept');
      assert.equal(r.headers['content-type'], 'application/json');
      const body = verifier.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      }) as { event_type: string };
      types.push(body.event_type);
    }
    assert.deepEqual(types.sort(), ['PAYMENT_ORDER.CLOSED', 'PAYMENT_ORDER.OPENED']);
    assert.deepEqual(readBack, ['200:CLOSED'], 'the status was committed before the webhook was sent');
  });
});
