import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePix } from 'pix-utils';
import { pixTxid } from '../../../src/domain/connectors/pix-charge.ts';
import { CLI_ACTOR } from '../../../src/domain/dashboard/audit.ts';
import { createPreference } from '../../support/builders.ts';
import { connectInput, usePixStandIn } from '../../support/pix-psp-stand-in.ts';
import {
  describeInChromium,
  fillPayer,
  latestOrder,
  pay,
  startCheckout,
  startSite,
  watchPage,
} from '../support/browser.ts';

// A live PIX payment as a payer lives it, in Chromium, with the merchant's PSP connected through
// its API Pix (the PSP stand-in, mutual TLS): the checkout shows the PSP's own copy-and-paste
// code and its QR; the payer pays in their bank app; the PSP notifies; the page, which polls
// without a reload, takes the payer to the merchant.

const standIns = usePixStandIn();

describeInChromium('[CHECKOUT] live PIX through the merchant’s PSP in Chromium', (browser) => {
  test('[CHECKOUT]: payer sees the PSP’s code and QR, pays, and lands on the merchant page', async (t) => {
    const standIn = standIns();
    const env = await startCheckout(t);
    const shop = await startSite(t);
    const merchant = await env.createMerchant('live');
    const client = await standIn.addClient();
    const connection = await env.cobro.services.connectors.connecting.connectPix(
      merchant.id,
      connectInput(standIn, client, 'live'),
      CLI_ACTOR,
    );
    const pref = await createPreference(env.app, merchant, {
      amount: 89.9,
      currency: 'BRL',
      title: 'Tênis de corrida',
      custom_urls: { success_payment_redirect: `${shop.origin}/obrigado?pedido=12` },
    });

    const page = await (await browser.context(t)).newPage();
    const watch = watchPage(page);
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'PIX', exact: true }).check();
    await pay(page);

    const code = page.getByLabel('PIX copy-and-paste code', { exact: true });
    await code.waitFor({ timeout: 10_000 });
    const order = await latestOrder({ ...env, merchant }, pref.id);
    const txid = pixTxid(order.id);
    const charge = standIn.charge(txid);
    const shown = await code.inputValue();
    assert.equal(shown, charge.pixCopiaECola, 'the PSP’s code, as it gave it');
    const parsed = parsePix(shown) as { type?: string; url?: string; error?: boolean };
    assert.ok(!parsed.error, JSON.stringify(parsed));
    assert.equal(`https://${parsed.url}`, charge.location);
    assert.equal((charge.request.valor as { original: string }).original, '89.90');
    assert.equal(await page.locator('[data-test="pix-qr"] svg').count(), 1);

    // Paid in the payer's bank app; the PSP notifies Cobro; the page follows without a reload.
    standIn.pay(txid);
    const note = standIn.notification(connection.webhookUrl, [txid]);
    const res = await fetch(`${env.baseUrl}${note.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: note.body,
    });
    assert.equal(res.status, 200, await res.text());
    await page.waitForURL((url) => url.origin === shop.origin && url.pathname === '/obrigado', { timeout: 15_000 });
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('pedido'), '12');
    assert.equal(landed.searchParams.get('status'), 'CLOSED');
    assert.equal((await latestOrder({ ...env, merchant }, pref.id)).status, 'CLOSED');
    assert.deepEqual(watch.errors, []);
  });
});
