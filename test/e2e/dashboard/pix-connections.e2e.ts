import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePixStandIn } from '../../support/pix-psp-stand-in.ts';
import { describeBackends } from '../../support/test-app.ts';
import { seriousViolations } from '../support/axe.ts';
import { describeInChromium, startCheckout, watchPage } from '../support/browser.ts';
import { signInInBrowser } from '../support/dashboard.ts';

/**
 * The PIX section of Settings → Payment connections in Chromium, against the mutual-TLS PSP
 * stand-in: an owner chooses the certificate, key and CA files in the real file inputs (a
 * multipart post, no JavaScript needed), sees the connection with its secrets sealed, tests it
 * and disconnects; axe-core finds no serious violation on the way.
 */

const standIns = usePixStandIn();

describeInChromium('[DASHBOARD] PIX connection in Chromium', (browser) => {
  describeBackends('[DASHBOARD] PIX connection', (_build, backend) => {
    test('[DASHBOARD]: an owner connects the PSP with certificate files, sees the PIX key and the webhook URL with the secrets sealed, tests and disconnects; no serious accessibility violation on the way', async (t) => {
      const standIn = standIns();
      const env = await startCheckout(t, {}, backend);
      const client = await standIn.addClient();
      const page = await (await browser.context(t, { bypassCSP: true })).newPage();
      const watch = watchPage(page);
      await signInInBrowser(env, page, 'owner');
      const failures: string[] = [];
      const audit = async (what: string) =>
        failures.push(...(await seriousViolations(page)).map((v) => `${what}: ${v}`));

      await page.goto(`${env.baseUrl}/dashboard/test/settings/connections`);
      await page.locator('[data-test="pix-not-connected"]').waitFor();
      await audit('not connected');

      const fill = async (secret: string) => {
        await page.getByLabel('Profile', { exact: true }).selectOption('bcb');
        await page.getByLabel('API Pix address', { exact: true }).fill(standIn.baseUrl);
        await page.getByLabel('Client ID', { exact: true }).fill(client.clientId);
        await page.getByLabel('Client secret', { exact: true }).fill(secret);
        await page.getByLabel('Client certificate', { exact: true }).setInputFiles(client.certificate.certFile);
        await page.getByLabel('Private key (PEM certificate only)').setInputFiles(client.certificate.keyFile);
        await page.getByLabel('Your PSP’s CA certificate (optional)').setInputFiles(standIn.ca.certFile);
        await page.getByLabel('PIX key', { exact: true }).fill('pagamentos@loja.com.br');
        await page.getByRole('button', { name: 'Connect PIX' }).click();
      };

      // A secret the PSP refuses: said beside the field, the secret not sent back.
      await fill('Client_Secret_not_this_one');
      assert.match(
        (await page.locator('[data-test="error-client_secret"]').textContent()) ?? '',
        /API Pix credentials: the PSP refused the client credentials/,
      );
      assert.equal(await page.getByLabel('Client secret', { exact: true }).inputValue(), '');
      assert.equal(await page.getByLabel('Client ID', { exact: true }).inputValue(), client.clientId);
      await audit('refused');

      await fill(client.clientSecret);
      await page.locator('[data-test="pix-connection"]').waitFor();
      assert.equal(await page.locator('[data-test="pix-key"]').textContent(), 'pagamentos@loja.com.br');
      const webhookUrl = (await page.locator('[data-test="pix-webhook-url"]').textContent()) ?? '';
      assert.equal(standIn.webhooks.get('pagamentos@loja.com.br')?.webhookUrl, webhookUrl);
      const html = await page.content();
      assert.ok(!html.includes(client.clientSecret), 'the page holds the client secret');
      assert.ok(!html.includes('PRIVATE KEY'), 'the page holds the private key');
      await audit('connected');

      await page.locator('[data-test="pix-test-connection"]').click();
      await page.locator('[data-test="pix-check-ok"]').waitFor();
      await page.locator('[data-test="pix-disconnect"]').click();
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.locator('[data-test="pix-connect-form"]').waitFor();
      assert.equal(standIn.webhooks.has('pagamentos@loja.com.br'), false, 'the webhook is removed at the PSP');

      await page.setViewportSize({ width: 390, height: 900 });
      await audit('narrow');
      assert.deepEqual(failures, []);
      assert.deepEqual(watch.errors, []);
    });
  });
});
