import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { HTML_PAGE, png } from '../../support/images.ts';
import { describeBackends } from '../../support/test-app.ts';
import { seriousViolations } from '../support/axe.ts';
import { describeInChromium, startCheckout, watchPage } from '../support/browser.ts';
import { signInInBrowser } from '../support/dashboard.ts';

/**
 * The business profile in Chromium: a logo uploaded through the real file input (multipart, no
 * script needed), the profile saved, and the payer's checkout showing whom they pay: the name,
 * the logo (decoded by the browser from our origin under the strict CSP) and the accent colour.
 */

describeInChromium('[DASHBOARD] settings in Chromium', (browser) => {
  describeBackends('[DASHBOARD] settings', (_build, backend) => {
    test('[DASHBOARD]: a logo uploaded through the browser and a saved profile show on the payer’s checkout; a renamed HTML file is refused', async (t) => {
      const env = await startCheckout(t, {}, backend);
      const dir = mkdtempSync(join(tmpdir(), 'cobro-logo-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const logoFile = join(dir, 'logo.png');
      writeFileSync(logoFile, png(120, 40, { rgb: [30, 125, 50] }));
      const fakeFile = join(dir, 'fake.png');
      writeFileSync(fakeFile, HTML_PAGE);

      const merchant = await (await browser.context(t, { javaScriptEnabled: false })).newPage();
      const watch = watchPage(merchant);
      await signInInBrowser(env, merchant, 'owner');

      // 1. From the settings index to the profile; save the name, e-mail and colour (no script runs).
      await merchant.goto(`${env.baseUrl}/dashboard/test/settings`);
      await merchant.getByRole('link', { name: 'Business profile' }).click();
      await merchant.getByLabel('Display name', { exact: true }).fill('Café Aurora');
      await merchant.getByLabel('Support e-mail', { exact: true }).fill('ajuda@aurora.example');
      await merchant.getByLabel('Accent colour', { exact: true }).fill('#1e7d32');
      await merchant.getByRole('button', { name: 'Save profile' }).click();
      await merchant.locator('[data-test="saved"]').waitFor();

      // 2. A file named .png that is a web page: refused, with the reason beside the field.
      await merchant.getByLabel('Logo file', { exact: true }).setInputFiles(fakeFile);
      await merchant.getByRole('button', { name: 'Upload logo' }).click();
      assert.match(
        (await merchant.locator('[data-test="error-logo"]').textContent()) ?? '',
        /must be a PNG or JPEG image; this file is a web page/,
      );

      // 3. The real logo.
      await merchant.getByLabel('Logo file', { exact: true }).setInputFiles(logoFile);
      await merchant.getByRole('button', { name: 'Upload logo' }).click();
      await merchant.locator('[data-test="saved"]').waitFor();
      assert.match((await merchant.locator('[data-test="saved"]').textContent()) ?? '', /Logo saved/);

      // 4. The payer's checkout, with its scripts and its strict CSP: whom they pay, with the logo decoded.
      const pref = await env.createPreference({ title: 'Two coffees' });
      const payer = await (await browser.context(t)).newPage();
      const payerWatch = watchPage(payer);
      await payer.goto(env.checkoutUrl(pref.id));
      assert.equal(await payer.locator('[data-test="payee-name"]').textContent(), 'Café Aurora');
      const logo = payer.locator('[data-test="payee-logo"]');
      assert.match(
        (await logo.getAttribute('src')) ?? '',
        /^\/checkout\/assets\/logos\/[A-Za-z0-9]+\/[0-9a-f]{64}\.png$/,
      );
      // The browser decoded it: a whole image of the uploaded size (no DOM types here, hence the casts).
      type Img = { complete: boolean; naturalWidth: number };
      await payer.waitForFunction(() => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): Img | null } }).document;
        const img = doc.querySelector('[data-test="payee-logo"]');
        return img?.complete === true && img.naturalWidth > 0;
      });
      assert.equal(await logo.evaluate((img) => (img as unknown as Img).naturalWidth), 120);
      const payButton = payer.getByRole('button', { name: 'Pay', exact: true });
      const background = await payButton.evaluate((button) => {
        const g = globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } };
        return g.getComputedStyle(button).backgroundColor;
      });
      assert.equal(background, 'rgb(30, 125, 50)', 'the accent colour, from our per-colour stylesheet');
      assert.equal(await payer.title(), 'Two coffees · Café Aurora');
      assert.equal(await payer.getByRole('link', { name: 'ajuda@aurora.example' }).count(), 1);
      assert.deepEqual(
        payerWatch.console.filter((line) => /Content Security Policy|Refused/i.test(line)),
        [],
        'nothing on the branded checkout is blocked by its CSP',
      );
      assert.deepEqual(payerWatch.errors, []);
      // axe-core is injected, so the page is opened once more with the CSP bypassed.
      const audited = await (await browser.context(t, { bypassCSP: true })).newPage();
      await audited.goto(env.checkoutUrl(pref.id));
      assert.deepEqual(await seriousViolations(audited), []);
      assert.deepEqual(watch.errors, []);
    });

    test('[DASHBOARD]: the settings pages have no serious accessibility violation, at 1280 and 390 px', async (t) => {
      const env = await startCheckout(t, {}, backend);
      const page = await (await browser.context(t, { bypassCSP: true })).newPage();
      await signInInBrowser(env, page, 'owner');
      const failures: string[] = [];
      for (const path of [
        '/dashboard/test/settings/profile',
        '/dashboard/test/settings/payments',
        '/dashboard/settings/payments',
      ]) {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          const res = await page.goto(`${env.baseUrl}${path}`);
          assert.equal(res?.status(), 200, path);
          failures.push(...(await seriousViolations(page)).map((v) => `${path} @${width}: ${v}`));
        }
      }
      // A form with errors too: the messages must be reachable and announced.
      await page.goto(`${env.baseUrl}/dashboard/test/settings/payments`);
      await page.getByLabel('PIX key', { exact: true }).fill('not a key');
      await page.getByRole('button', { name: 'Save payment settings' }).click();
      await page.locator('[data-test="error-pix_key"]').waitFor();
      failures.push(...(await seriousViolations(page)).map((v) => `payments with errors: ${v}`));
      assert.deepEqual(failures, []);
    });
  });
});
