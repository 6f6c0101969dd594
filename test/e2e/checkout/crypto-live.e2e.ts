import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVM_TEST_XPUB } from '../../../src/providers/crypto-onchain/derivation.ts';
import { createPreference } from '../../support/builders.ts';
import { baseUsdcSettings, startEvmNode } from '../../support/evm-node.ts';
import { describeInChromium, fillPayer, pay, startCheckout, startSite, watchPage } from '../support/browser.ts';

// A live USDC payment as a payer lives it, in Chromium: the checkout hands out the order's own
// address, the EIP-681 URI and its QR; a real EVM node (ganache, with OpenZeppelin's ERC-20 as
// USDC on Base) carries the transfer; the page says what the chain has seen as blocks are
// mined, without a reload, and takes the payer to the merchant once the payment has its
// confirmations.

const REQUIRED = 3;

describeInChromium('[CHECKOUT] live USDC in Chromium', (browser) => {
  test('[CHECKOUT]: payer pays USDC on Base, watches the confirmations come in, and lands on the merchant page', async (t) => {
    const node = await startEvmNode(t);
    const token = await node.deployToken({ decimals: 6, symbol: 'USDC' });
    const env = await startCheckout(t, { env: baseUsdcSettings(node, token, REQUIRED) });
    const shop = await startSite(t);
    const merchant = await env.createMerchant('live');
    await env.cobro.services.merchants.updateSettings(merchant.id, { crypto: { evm_xpub: EVM_TEST_XPUB } });
    const pref = await createPreference(env.app, merchant, {
      amount: 25,
      payment_method_types: ['CRYPTO_ONCHAIN'],
      custom_urls: { success_payment_redirect: `${shop.origin}/thanks?order=7` },
    });

    const page = await (await browser.context(t)).newPage();
    const watch = watchPage(page);
    await page.goto(env.checkoutUrl(pref.id));
    // Live: only the network this server watches is offered.
    const choices = await page
      .locator('input[type="radio"][data-method-type="CRYPTO_ONCHAIN"]')
      .evaluateAll((radios) =>
        radios.map((r) => (r as unknown as { labels: { textContent: string }[] }).labels[0]?.textContent?.trim()),
      );
    assert.deepEqual(choices, ['USDC on Base']);
    await fillPayer(page);
    await page.getByRole('radio', { name: 'USDC on Base', exact: true }).check();
    await pay(page);

    const address = await page.getByLabel('Address', { exact: true }).inputValue();
    const amount = await page.getByLabel('Amount (USDC)', { exact: true }).inputValue();
    assert.match(address, /^0x[0-9a-fA-F]{40}$/);
    assert.equal(amount, '25.000000');
    assert.equal(
      await page.locator('[data-test="crypto-uri"]').getAttribute('href'),
      `ethereum:${token}@${node.chainId}/transfer?address=${address}&uint256=25000000`,
    );
    assert.equal(await page.locator('[data-test="crypto-qr"] svg').count(), 1);
    const progress = page.locator('[data-test="crypto-progress"]');
    assert.equal((await progress.textContent())?.trim(), '');

    // The payer's wallet sends it; each block mined, the watcher runs and the page follows.
    await node.transfer(token, address, 25_000_000n);
    for (let confirmations = 1; confirmations < REQUIRED; confirmations++) {
      await env.cobro.runJobs();
      await page
        .getByText(`Payment seen — ${confirmations} of ${REQUIRED} confirmations.`, { exact: true })
        .waitFor({ timeout: 10_000 });
      await node.mine();
    }
    await env.cobro.runJobs();
    await page.waitForURL((url) => url.origin === shop.origin && url.pathname === '/thanks', { timeout: 10_000 });
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('order'), '7', "the merchant's own query string is kept");
    assert.equal(landed.searchParams.get('status'), 'CLOSED');
    assert.equal(landed.searchParams.get('checkout_preference_id'), pref.id);
    const order = await env.app.inject({
      url: `/v1/checkout_preferences/${pref.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(order.json().status, 'PAID');
    assert.deepEqual(watch.errors, []);
  });
});
