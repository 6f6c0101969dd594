import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPreference } from '../../support/builders.ts';
import { signedInMember } from '../../support/dashboard-client.ts';
import { pay } from '../../support/payments.ts';
import { describeBackends } from '../../support/test-app.ts';

describeBackends('dashboard home', (build) => {
  test('shows the figures of the range and currency, and each chart with its table', async (t) => {
    const ctx = await build(t);
    for (const amount of [12.5, 7.5]) {
      const pref = await createPreference(ctx.app, ctx.merchant, {
        amount,
        currency: 'USD',
        payment_method_types: ['CARD'],
      });
      assert.equal((await pay(ctx.app, ctx.merchant, pref.id)).statusCode, 201);
    }
    await createPreference(ctx.app, ctx.merchant, { amount: 3, currency: 'USD' });
    const browser = await signedInMember(ctx, 'viewer');

    const home = await browser.get('/dashboard/test?range=7d&currency=USD');
    assert.equal(home.statusCode, 200);
    const figure = (key: string) =>
      new RegExp(`data-test="figure-${key}"><span class="label">[^<]+</span><span class="value">([^<]+)<`).exec(
        home.body,
      )?.[1];
    assert.equal(figure('gross'), '$20.00');
    assert.equal(figure('paid'), '2');
    assert.equal(figure('conversion'), '66.7%');
    for (const chart of ['daily-volume', 'method-mix', 'conversion']) {
      assert.match(home.body, new RegExp(`data-test="chart-${chart}"`), chart);
    }
    assert.match(home.body, /<table/);
    assert.match(home.body, /role="img"/);
    // Live mode has none of the test data.
    const live = await browser.get('/dashboard?range=7d');
    assert.doesNotMatch(live.body, /\$20\.00/);
    assert.match(live.body, /data-test="test-only"/, 'a test-only merchant is pointed at its test data');
    assert.doesNotMatch(home.body, /data-test="test-only"/);
    // A range or currency that is not offered falls back to the defaults, never an error.
    assert.equal((await browser.get('/dashboard/test?range=9999d&currency=%3Cscript%3E')).statusCode, 200);

    // In the reader's language: the words, and the money in that language's format.
    const es = await browser.get('/dashboard/test?range=7d&currency=USD', { 'accept-language': 'es-AR,es;q=0.9' });
    assert.match(es.body, /<html lang="es"/);
    assert.match(es.body, /Volumen bruto/);
    assert.match(es.body, /Últimos 7 días/);
    assert.doesNotMatch(es.body, /Gross volume/);
    const pt = await browser.get('/dashboard/test?range=7d&currency=USD', { 'accept-language': 'pt-BR' });
    assert.match(pt.body, /Receita recorrente mensal/);
    assert.match(pt.body, /US\$\s20,00/);
  });

  test('an amount reads as the reader writes it: R$ 49,90 in Portuguese, $ 1.234,50 in Argentine Spanish', async (t) => {
    const ctx = await build(t);
    const brl = await createPreference(ctx.app, ctx.merchant, {
      amount: 49.9,
      currency: 'BRL',
      payment_method_types: ['CARD'],
    });
    const ars = await createPreference(ctx.app, ctx.merchant, {
      amount: 1234.5,
      currency: 'ARS',
      payment_method_types: ['CARD'],
    });
    const brlOrder = await pay(ctx.app, ctx.merchant, brl.id);
    const arsOrder = await pay(ctx.app, ctx.merchant, ars.id);
    const browser = await signedInMember(ctx, 'viewer');
    const amountOn = async (orderId: string, language: string) => {
      const page = await browser.get(`/dashboard/test/payment_orders/${orderId}`, { 'accept-language': language });
      assert.equal(page.statusCode, 200);
      return /data-test="order-amount">([^<]+)</
        .exec(page.body)?.[1]
        ?.replace(/[\u00a0\u202f]/g, ' ')
        .trim();
    };
    // A language without a region writes the currency the way its home country does.
    assert.equal(await amountOn(brlOrder.json().id, 'pt'), 'R$ 49,90');
    assert.equal(await amountOn(arsOrder.json().id, 'es-AR'), '$ 1.234,50');
    assert.equal(await amountOn(arsOrder.json().id, 'es'), '$ 1.234,50');
    assert.equal(await amountOn(brlOrder.json().id, 'en-US'), 'R$49.90');
  });
});
