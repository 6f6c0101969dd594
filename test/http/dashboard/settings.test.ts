import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { checkPaymentSettings } from '../../../src/domain/merchants/payment-settings.ts';
import { BTC_TESTNET_TEST_VPUB, EVM_TEST_XPUB } from '../../../src/providers/crypto-onchain/derivation.ts';
import { paymentKeyChecks } from '../../../src/providers/payment-key-checks.ts';
import { createPreference } from '../../support/builders.ts';
import { DashboardClient, signedInMember } from '../../support/dashboard-client.ts';
import { cobroArgs } from '../../support/dist.ts';
import { HTML_PAGE, png, SCRIPTED_SVG, TINY_GIF, TINY_JPEG } from '../../support/images.ts';
import { payPixSubscription } from '../../support/payments.ts';
import type { TestApp } from '../../support/test-app.ts';
import { buildTestApp, describeBackends } from '../../support/test-app.ts';

const T = '/dashboard/test';

const signedIn = (ctx: TestApp, role: string, email?: string) => signedInMember(ctx, role, email ? { email } : {});

type Upload = { name: string; type: string; bytes: Buffer };

/** Posts the logo form as a browser does (multipart/form-data), with the token of the last page `browser` read. */
async function uploadLogo(
  _ctx: TestApp,
  browser: DashboardClient,
  file: Upload | null,
  options: { csrf?: string | null; base?: string } = {},
): Promise<LightMyRequestResponse> {
  return browser.postMultipart(
    `${options.base ?? T}/settings/profile/logo`,
    {},
    file ? [{ field: 'logo', name: file.name, type: file.type, bytes: file.bytes }] : [],
    { csrf: options.csrf },
  );
}

/** This area's audit entries (the team's own, from signing people in, are left out). */
async function auditActions(ctx: TestApp): Promise<string[]> {
  return (await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null))
    .map((e) => e.action)
    .filter((a) => a.startsWith('merchant.'));
}

async function checkoutPage(ctx: TestApp): Promise<LightMyRequestResponse> {
  const pref = await createPreference(ctx.app, ctx.merchant);
  const page = await ctx.app.inject({ url: `/checkout/${pref.id}` });
  assert.equal(page.statusCode, 200, page.body);
  return page;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const PROFILE = { display_name: 'Loja Aurora', support_email: 'ajuda@aurora.example', accent_color: '#1E7D32' };

describeBackends('dashboard settings: business profile', (build) => {
  test('the checkout names the merchant by its own name until a display name is set', async (t) => {
    const ctx = await build(t);
    const { merchantName } = await ctx.cobro.services.profiles.get(ctx.merchant.id);
    const page = await checkoutPage(ctx);
    assert.match(page.body, new RegExp(`data-test="payee-name">${merchantName}</strong>`));
    assert.doesNotMatch(page.body, /data-test="payee-logo"/);
    assert.doesNotMatch(page.body, /assets\/accent\//);
  });

  test('an owner saves the profile and a logo; the checkout shows the display name, the logo from our origin and the accent colour', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    const settings = await owner.get(`${T}/settings`);
    assert.match(settings.body, /<a href="\/dashboard\/test\/settings\/profile">Business profile<\/a>/);
    assert.match(settings.body, /<a href="\/dashboard\/test\/settings\/payments">Payment settings<\/a>/);

    const form = await owner.get(`${T}/settings/profile`);
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, /<label for="display_name">Display name<\/label>/);
    assert.match(form.body, /enctype="multipart\/form-data"/);
    const saved = await owner.post(`${T}/settings/profile`, PROFILE);
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, `${T}/settings/profile?saved=profile`);

    const logo = png(64, 32);
    await owner.get(`${T}/settings/profile`);
    const uploaded = await uploadLogo(ctx, owner, { name: 'logo.png', type: 'image/png', bytes: logo });
    assert.equal(uploaded.statusCode, 303, uploaded.body);
    assert.equal(uploaded.headers.location, `${T}/settings/profile?saved=logo`);

    const logoUrl = `/checkout/assets/logos/${ctx.merchant.id}/${sha256(logo)}.png`;
    const page = await owner.get(`${T}/settings/profile?saved=logo`);
    assert.match(page.body, /data-test="saved">Logo saved/);
    assert.match(page.body, /data-test="preview-name">Loja Aurora</);
    assert.ok(page.body.includes(`src="${logoUrl}" width="64" height="32"`), page.body);
    assert.match(page.body, /value="#1e7d32"/, 'the colour is stored in lower case');
    // One profile for the merchant: the live pages show the same.
    assert.match((await owner.get('/dashboard/settings/profile')).body, /data-test="preview-name">Loja Aurora</);

    const checkout = await checkoutPage(ctx);
    assert.match(checkout.body, /<strong data-test="payee-name">Loja Aurora<\/strong>/);
    assert.ok(
      checkout.body.includes(`<img class="payee-logo" src="${logoUrl}" width="64" height="32" alt=""`),
      checkout.body,
    );
    assert.match(checkout.body, /<link rel="stylesheet" href="\/checkout\/assets\/accent\/1e7d32\.css">/);
    assert.match(checkout.body, /<a href="mailto:ajuda@aurora\.example">ajuda@aurora\.example<\/a>/);
    assert.match(checkout.body, /<title>[^<]* · Loja Aurora<\/title>/);
    assert.match(String(checkout.headers['content-security-policy']), /img-src 'self'/);

    const image = await ctx.app.inject({ url: logoUrl });
    assert.equal(image.statusCode, 200);
    assert.deepEqual(image.rawPayload, logo, 'the very bytes uploaded');
    assert.equal(image.headers['content-type'], 'image/png');
    assert.equal(image.headers['x-content-type-options'], 'nosniff');
    assert.equal(image.headers['content-disposition'], 'inline; filename="logo.png"');
    assert.equal(image.headers['cache-control'], 'public, max-age=31536000, immutable');
    for (const wrong of [
      logoUrl.replace('.png', '.jpg'),
      logoUrl.replace(ctx.merchant.id, (await ctx.createMerchant()).id),
      logoUrl.replace(sha256(logo), sha256(Buffer.from('other'))),
      `/checkout/assets/logos/${ctx.merchant.id}/..%2f..%2fetc.png`,
    ]) {
      assert.equal((await ctx.app.inject({ url: wrong })).statusCode, 404, wrong);
    }

    const css = await ctx.app.inject({ url: '/checkout/assets/accent/1e7d32.css' });
    assert.equal(css.statusCode, 200);
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
    assert.match(css.body, /background: #1e7d32;/);
    assert.match(css.body, /color: #ffffff;/, 'white text on a dark accent');
    assert.match(
      (await ctx.app.inject({ url: '/checkout/assets/accent/ffee00.css' })).body,
      /color: #1b1f24;/,
      'dark text on a light accent',
    );
    assert.equal((await ctx.app.inject({ url: '/checkout/assets/accent/red.css' })).statusCode, 404);

    const actions = await auditActions(ctx);
    assert.ok(actions.includes('merchant.profile.update'), actions.join());
    assert.ok(actions.includes('merchant.logo.update'), actions.join());
    const entry = (await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null)).find(
      (e) => e.action === 'merchant.logo.update',
    );
    assert.match(entry?.actor ?? '', /^owner-[0-9a-f]{8}@shop\.example$/);
    assert.equal(entry?.detail.sha256, sha256(logo));

    // A JPEG replaces it; the PNG's address is gone (only the current logo is kept).
    await owner.get(`${T}/settings/profile`);
    const jpeg = await uploadLogo(ctx, owner, { name: 'logo.jpeg', type: 'image/jpeg', bytes: TINY_JPEG });
    assert.equal(jpeg.statusCode, 303, jpeg.body);
    const jpegUrl = `/checkout/assets/logos/${ctx.merchant.id}/${sha256(TINY_JPEG)}.jpg`;
    const served = await ctx.app.inject({ url: jpegUrl });
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/jpeg');
    assert.equal((await ctx.app.inject({ url: logoUrl })).statusCode, 404);
    assert.ok((await checkoutPage(ctx)).body.includes(`src="${jpegUrl}" width="8" height="4"`));

    // Removed: the checkout shows the name alone; an empty display name brings back the merchant's own.
    // Removing asks first, on a page of its own (no JavaScript needed); Cancel leaves it be.
    const profileWithLogo = await owner.get(`${T}/settings/profile`);
    assert.match(profileWithLogo.body, new RegExp(`href="${T}/settings/profile/logo/remove" data-test="remove-logo"`));
    const confirm = await owner.get(`${T}/settings/profile/logo/remove`);
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.match(confirm.body, /<h1>Remove the logo\?<\/h1>/);
    assert.match(confirm.body, new RegExp(`<form method="post" action="${T}/settings/profile/logo/remove"`));
    assert.match(confirm.body, new RegExp(`href="${T}/settings/profile">Cancel`));
    assert.equal((await ctx.app.inject({ url: jpegUrl })).statusCode, 200, 'asking removes nothing');
    const removed = await owner.post(`${T}/settings/profile/logo/remove`, {});
    assert.equal(removed.statusCode, 303, removed.body);
    assert.equal((await ctx.app.inject({ url: jpegUrl })).statusCode, 404);
    await owner.get(`${T}/settings/profile`);
    await owner.post(`${T}/settings/profile`, { display_name: '', support_email: '', accent_color: '' });
    const plain = await checkoutPage(ctx);
    const { merchantName } = await ctx.cobro.services.profiles.get(ctx.merchant.id);
    assert.match(plain.body, new RegExp(`data-test="payee-name">${merchantName}<`));
    assert.doesNotMatch(plain.body, /payee-logo|assets\/accent|mailto:/);
    assert.ok((await auditActions(ctx)).includes('merchant.logo.remove'));
  });

  test('a logo that is not a whole PNG or JPEG of sane size is refused with a clear message, and nothing is stored', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'admin');
    const good = png(40, 40);
    await owner.get(`${T}/settings/profile`);
    assert.equal((await uploadLogo(ctx, owner, { name: 'a.png', type: 'image/png', bytes: good })).statusCode, 303);
    const auditBefore = (await auditActions(ctx)).length;

    const big = png(320, 320, { noise: true });
    assert.ok(big.length > 256 * 1024, `the noise PNG is ${big.length} bytes`);
    const whole = png(30, 30);
    const cases: [string, Upload | null, RegExp][] = [
      [
        'a GIF',
        { name: 'logo.gif', type: 'image/gif', bytes: TINY_GIF },
        /must be a PNG or JPEG image; this file is a GIF image/,
      ],
      ['an SVG', { name: 'logo.svg', type: 'image/svg+xml', bytes: SCRIPTED_SVG }, /this file is an SVG image/],
      ['an SVG named .png', { name: 'logo.png', type: 'image/png', bytes: SCRIPTED_SVG }, /this file is an SVG image/],
      [
        'an HTML page named .png',
        { name: 'logo.png', type: 'image/png', bytes: HTML_PAGE },
        /this file is a web page or other text, not an image, whatever its name says/,
      ],
      ['a PNG over 256 KB', { name: 'big.png', type: 'image/png', bytes: big }, /larger than 256 KB/],
      [
        'a truncated PNG',
        { name: 'cut.png', type: 'image/png', bytes: whole.subarray(0, whole.length - 20) },
        /not a complete PNG file/,
      ],
      [
        'a PNG with HTML after its end',
        { name: 'poly.png', type: 'image/png', bytes: Buffer.concat([whole, HTML_PAGE]) },
        /not a complete PNG file/,
      ],
      [
        'a PNG claiming 4096 pixels',
        { name: 'wide.png', type: 'image/png', bytes: png(8, 8, { header: { width: 4096, height: 8 } }) },
        /4096 × 8 pixels; at most 2048 × 2048/,
      ],
      [
        'a truncated JPEG',
        { name: 'cut.jpg', type: 'image/jpeg', bytes: TINY_JPEG.subarray(0, TINY_JPEG.length - 30) },
        /not a complete JPEG file/,
      ],
      ['no file at all', null, /Choose an image file for the logo/],
      [
        'an empty file',
        { name: 'empty.png', type: 'image/png', bytes: Buffer.alloc(0) },
        /Choose an image file for the logo/,
      ],
    ];
    for (const [what, file, message] of cases) {
      await owner.get(`${T}/settings/profile`);
      const res = await uploadLogo(ctx, owner, file);
      assert.equal(res.statusCode, 400, `${what}: ${res.statusCode}`);
      assert.match(res.body, /data-test="error-logo"/, what);
      assert.match(res.body, message, `${what}: ${/data-test="error-logo">([^<]*)/.exec(res.body)?.[1]}`);
      assert.match(res.body, /role="alert"/, `${what}: the error summary is announced`);
      const profile = await ctx.cobro.services.profiles.get(ctx.merchant.id);
      assert.equal(profile.logo?.sha256, sha256(good), `${what}: the logo is unchanged`);
    }
    assert.equal((await auditActions(ctx)).length, auditBefore, 'nothing refused is audited as a change');
    assert.equal(
      (await ctx.app.inject({ url: `/checkout/assets/logos/${ctx.merchant.id}/${sha256(good)}.png` })).statusCode,
      200,
    );
  });

  test('the profile form refuses an accent colour other than #rrggbb, an invalid e-mail and a long name, and keeps what was typed', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    for (const accent of [
      'red',
      '#fff',
      '#12345g',
      '1e7d32',
      '#1e7d32;background:url(x)',
      'javascript:alert(1)',
      '#1e7d3200',
    ]) {
      await owner.get(`${T}/settings/profile`);
      const res = await owner.post(`${T}/settings/profile`, { ...PROFILE, accent_color: accent });
      assert.equal(res.statusCode, 400, accent);
      assert.match(res.body, /data-test="error-accent_color">Accent colour must be written #rrggbb/, accent);
      assert.match(res.body, /id="accent_color"[^>]*aria-invalid="true"/, accent);
    }
    await owner.get(`${T}/settings/profile`);
    const res = await owner.post(`${T}/settings/profile`, {
      display_name: 'x'.repeat(101),
      support_email: 'not an address',
      accent_color: '#123456',
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /Display name must be at most 100 characters/);
    assert.match(res.body, /Support e-mail must be an e-mail address/);
    assert.match(res.body, /value="not an address"/, 'what was typed is kept');
    await owner.get(`${T}/settings/profile`);
    const control = await owner.post(`${T}/settings/profile`, {
      ...PROFILE,
      display_name: 'Loja\r\nBcc: x@evil.example',
    });
    assert.equal(control.statusCode, 400);
    assert.match(control.body, /must not contain control/);
    const profile = await ctx.cobro.services.profiles.get(ctx.merchant.id);
    assert.equal(profile.storedDisplayName, null, 'nothing was stored');
    assert.equal(profile.accentColor, null);
    assert.deepEqual(await auditActions(ctx), []);
  });

  test('merchant-supplied profile text is escaped on the dashboard and on the checkout (stored XSS)', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    const name = `"><img src=x onerror=alert(1)><script>alert(2)</script>`;
    // Valid (WHATWG) addresses may hold ' and =, enough to leave a single-quoted attribute.
    const email = "o'neil=x@shop.example";
    await owner.get(`${T}/settings/profile`);
    const saved = await owner.post(`${T}/settings/profile`, {
      display_name: name,
      support_email: email,
      accent_color: '',
    });
    assert.equal(saved.statusCode, 303, saved.body);
    const escapedName = '&quot;&gt;&lt;img src&#61;x onerror&#61;alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;';
    const escapedEmail = 'o&#39;neil&#61;x@shop.example';
    const pages = [(await owner.get(`${T}/settings/profile`)).body, (await checkoutPage(ctx)).body];
    for (const body of pages) {
      assert.ok(!body.includes('<script>alert(2)'), 'no script from the name');
      assert.ok(!body.includes('onerror=alert'), 'no handler from the name');
      assert.ok(body.includes(escapedName), 'the name is shown, escaped');
      assert.ok(body.includes(escapedEmail), 'the e-mail is shown, escaped');
      assert.ok(!body.includes(email), 'never raw');
    }
    // A refused e-mail is shown back escaped too.
    await owner.get(`${T}/settings/profile`);
    const refused = await owner.post(`${T}/settings/profile`, {
      display_name: 'ok',
      support_email: '"><svg onload=alert(3)>',
      accent_color: '',
    });
    assert.equal(refused.statusCode, 400);
    assert.ok(!refused.body.includes('<svg onload'), refused.body);
    assert.ok(refused.body.includes('&quot;&gt;&lt;svg onload&#61;alert(3)&gt;'));
  });

  test('the renewal e-mail names the merchant by its display name and gives its support address', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    await owner.get(`${T}/settings/profile`);
    await owner.post(`${T}/settings/profile`, PROFILE);
    const { order } = await payPixSubscription(ctx.app, ctx.merchant);
    const rec = await ctx.app.inject({
      url: `/v1/recurrent_payments/${order.json().recurrent_payment_id}`,
      headers: ctx.merchant.authHeaders,
    });
    ctx.clock.advance(Date.parse(String(rec.json().next_payment_date)) - ctx.clock.now().getTime() - 2 * 86_400_000);
    await ctx.cobro.runJobs();
    const mails = await ctx.app.inject({ url: '/v1/test_helpers/emails', headers: ctx.merchant.authHeaders });
    const [mail] = mails.json().data as { subject: string; text: string }[];
    assert.ok(mail, mails.body);
    assert.equal(mail.subject, 'Payment due: Revista Mensal (Loja Aurora)');
    assert.ok(mail.text.split('\n').includes('This subscription is with Loja Aurora.'), mail.text);
    assert.ok(mail.text.split('\n').includes('Questions about it? Write to ajuda@aurora.example.'), mail.text);
  });
});

const VALID_PAYMENTS = {
  pix_key: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
  pix_name: 'Loja Aurora',
  pix_city: 'São Paulo',
  btc_xpub: BTC_TESTNET_TEST_VPUB,
  btc_network: 'testnet',
  evm_xpub: EVM_TEST_XPUB,
  bank_name: 'Banco Exemplo',
  bank_holder: 'Loja Aurora Ltda',
  bank_account: '12345-6',
  bank_routing: '0001',
};
const EMPTY_PAYMENTS = Object.fromEntries(
  Object.keys(VALID_PAYMENTS).map((k) => [k, k === 'btc_network' ? 'mainnet' : '']),
);

describeBackends('dashboard settings: payment settings', (build) => {
  test('test mode shows its working defaults until settings are saved; saved settings show in both modes and can be removed', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    const test0 = await owner.get(`${T}/settings/payments`);
    assert.equal(test0.statusCode, 200, test0.body);
    assert.match(test0.body, /data-test="test-defaults-note"/);
    for (const method of ['pix', 'btc', 'evm', 'bank']) {
      assert.match(test0.body, new RegExp(`data-test="in-use-${method}">.*data-test="test-default"`), method);
    }
    assert.match(test0.body, /7d9f0335-8dcc-4054-9bf9-0dbd61d36906/, 'the test PIX key is shown');
    assert.match(test0.body, /id="pix_key" name="pix_key" type="text" value=""/, 'defaults are not put in the form');
    const live0 = await owner.get('/dashboard/settings/payments');
    assert.match(
      live0.body,
      /data-test="in-use-pix"><th scope="row">PIX<\/th><td>Not set up: payers are not offered this method/,
    );

    await owner.get(`${T}/settings/payments`);
    const saved = await owner.post(`${T}/settings/payments`, {
      ...VALID_PAYMENTS,
      pix_key: ` ${VALID_PAYMENTS.pix_key} `,
    });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, `${T}/settings/payments?saved=1`);
    assert.deepEqual(await ctx.cobro.services.merchants.getSettings(ctx.merchant.id), {
      pix: { key: VALID_PAYMENTS.pix_key, merchant_name: 'Loja Aurora', city: 'São Paulo' },
      crypto: { btc_xpub: BTC_TESTNET_TEST_VPUB, btc_network: 'testnet', evm_xpub: EVM_TEST_XPUB },
      bank: {
        bank_name: 'Banco Exemplo',
        account_holder: 'Loja Aurora Ltda',
        account_number: '12345-6',
        routing: '0001',
      },
    });
    const live1 = await owner.get('/dashboard/settings/payments?saved=1');
    assert.match(live1.body, /data-test="saved"/);
    assert.match(live1.body, /Loja Aurora Ltda, Banco Exemplo, account 12345-6 \(0001\)/);
    assert.doesNotMatch(live1.body, /data-test="test-default"/);
    assert.match(
      live1.body,
      /id="pix_name" name="pix_name" type="text" value="Loja Aurora"/,
      'the form holds the stored values',
    );

    // Everything empty: nothing stored; test mode falls back to its defaults again, live offers none.
    await owner.get(`${T}/settings/payments`);
    const cleared = await owner.post(`${T}/settings/payments`, EMPTY_PAYMENTS);
    assert.equal(cleared.statusCode, 303, cleared.body);
    assert.deepEqual(await ctx.cobro.services.merchants.getSettings(ctx.merchant.id), {});
    assert.match((await owner.get(`${T}/settings/payments`)).body, /data-test="in-use-pix">.*data-test="test-default"/);

    const entries = (await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null)).filter(
      (e) => e.action === 'merchant.payment_settings.update',
    );
    assert.equal(entries.length, 2);
    // Both at one instant of the test clock: compared in either order.
    assert.deepEqual(
      entries.map((e) => e.detail).sort((a, b) => Number(a.pix) - Number(b.pix)),
      [
        { pix: false, bitcoin: false, evm: false, bank: false, changed: 'pix,crypto,bank' },
        { pix: true, bitcoin: true, evm: true, bank: true, changed: 'pix,crypto,bank' },
      ],
    );
  });

  test('invalid payment settings answer 400 on the form, with the messages the command line gives, and change nothing', async (t) => {
    const ctx = await build(t);
    const owner = await signedIn(ctx, 'owner');
    await owner.get(`${T}/settings/payments`);
    await owner.post(`${T}/settings/payments`, {
      ...EMPTY_PAYMENTS,
      bank_name: 'Banco',
      bank_holder: 'H',
      bank_account: '1',
      bank_routing: '2',
    });
    const before = await ctx.cobro.services.merchants.getSettings(ctx.merchant.id);
    const cases: [Record<string, string>, string, string][] = [
      [
        { pix_key: 'not a key', pix_name: 'Loja', pix_city: 'Rio' },
        'pix_key',
        'PIX key must be a PIX key: CPF, CNPJ, +55 phone, e-mail or random key (EVP)',
      ],
      [{ pix_key: '12345678901' }, 'pix_name', 'PIX key needs PIX name and PIX city (they appear in the BR Code)'],
      [{ pix_name: 'Loja', pix_city: 'Rio' }, 'pix_key', 'PIX name and PIX city need PIX key'],
      [
        { pix_key: '12345678901', pix_name: 'Loja 東京', pix_city: 'Rio' },
        'pix_name',
        'PIX name: has characters a BR Code cannot carry',
      ],
      [{ btc_xpub: 'xpub-nonsense', btc_network: 'mainnet' }, 'btc_xpub', 'Bitcoin extended public key: '],
      [
        { btc_xpub: BTC_TESTNET_TEST_VPUB, btc_network: 'mainnet' },
        'btc_xpub',
        'Bitcoin extended public key: a vpub key belongs to testnet, not mainnet',
      ],
      [
        { btc_xpub: BTC_TESTNET_TEST_VPUB, btc_network: 'signet' },
        'btc_network',
        'Bitcoin network must be mainnet or testnet',
      ],
      [{ evm_xpub: 'xprv9s21ZrQH143K' }, 'evm_xpub', 'EVM extended public key: '],
      [
        { bank_name: 'Banco', bank_holder: 'H' },
        'bank_account',
        'Bank name needs Account holder, Account number and Routing or branch code',
      ],
      [{ pix_key: 'x'.repeat(201), pix_name: 'a', pix_city: 'b' }, 'pix_key', 'PIX key must be at most 200 characters'],
    ];
    for (const [fields, field, message] of cases) {
      await owner.get(`${T}/settings/payments`);
      const res = await owner.post(`${T}/settings/payments`, { ...EMPTY_PAYMENTS, ...fields });
      assert.equal(res.statusCode, 400, JSON.stringify(fields));
      const shown = new RegExp(`data-test="error-${field}">([^<]*)<`).exec(res.body)?.[1] ?? '';
      assert.ok(shown.startsWith(message.replaceAll("'", '&#39;')), `${JSON.stringify(fields)}: ${shown}`);
      assert.match(res.body, /data-test="problems"/);
      // The same function speaks for the command line, with the flags' names.
      const cli = checkPaymentSettings(
        Object.fromEntries(Object.entries({ ...fields }).filter(([, v]) => v !== '')),
        paymentKeyChecks,
        (f) => `--${f.replaceAll('_', '-')}`,
      );
      assert.ok(cli.problems.length > 0, JSON.stringify(fields));
    }
    assert.deepEqual(await ctx.cobro.services.merchants.getSettings(ctx.merchant.id), before, 'nothing changed');
    assert.equal((await auditActions(ctx)).filter((a) => a === 'merchant.payment_settings.update').length, 1);
  });
});

describeBackends('dashboard settings: roles', (build) => {
  test('viewers and developers read the settings without forms, and their posts answer 403 and change nothing', async (t) => {
    const ctx = await build(t);
    for (const role of ['viewer', 'developer']) {
      const browser = await signedIn(ctx, role);
      const profile = await browser.get(`${T}/settings/profile`);
      assert.equal(profile.statusCode, 200, profile.body);
      assert.match(profile.body, new RegExp(`data-test="read-only">Your role \\(${role}\\)`));
      assert.doesNotMatch(profile.body, /data-test="profile-form"|data-test="logo-form"|enctype=/);
      assert.equal((await browser.get(`${T}/settings/profile/logo/remove`)).statusCode, 403, `${role} confirm page`);
      const payments = await browser.get(`${T}/settings/payments`);
      assert.equal(payments.statusCode, 200);
      assert.match(payments.body, /data-test="in-use"/);
      assert.doesNotMatch(payments.body, /data-test="payment-settings-form"/);

      const token = browser.csrf();
      assert.ok(token, 'the page still carries a token (sign-out form)');
      for (const [url, fields] of [
        [`${T}/settings/profile`, PROFILE],
        [`${T}/settings/payments`, VALID_PAYMENTS],
        [`${T}/settings/profile/logo/remove`, {}],
      ] as const) {
        const res = await browser.post(url, fields, { csrf: token });
        assert.equal(res.statusCode, 403, `${role} ${url}`);
      }
      const upload = await uploadLogo(
        ctx,
        browser,
        { name: 'a.png', type: 'image/png', bytes: png(4, 4) },
        { csrf: token },
      );
      assert.equal(upload.statusCode, 403, `${role} logo`);
    }
    const profile = await ctx.cobro.services.profiles.get(ctx.merchant.id);
    assert.equal(profile.storedDisplayName, null);
    assert.equal(profile.logo, null);
    assert.deepEqual(await ctx.cobro.services.merchants.getSettings(ctx.merchant.id), {});
    assert.deepEqual(await auditActions(ctx), []);
  });

  test('an admin may change the settings; a cross-origin or tokenless upload is refused', async (t) => {
    const ctx = await build(t);
    const admin = await signedIn(ctx, 'admin');
    await admin.get(`${T}/settings/profile`);
    assert.equal((await admin.post(`${T}/settings/profile`, PROFILE)).statusCode, 303);
    await admin.get(`${T}/settings/payments`);
    assert.equal((await admin.post(`${T}/settings/payments`, VALID_PAYMENTS)).statusCode, 303);
    await admin.get(`${T}/settings/profile`);
    const tokenless = await uploadLogo(
      ctx,
      admin,
      { name: 'a.png', type: 'image/png', bytes: png(4, 4) },
      { csrf: null },
    );
    assert.equal(tokenless.statusCode, 403);
    const forged = await uploadLogo(
      ctx,
      admin,
      { name: 'a.png', type: 'image/png', bytes: png(4, 4) },
      { csrf: 'x'.repeat(43) },
    );
    assert.equal(forged.statusCode, 403);
    assert.equal((await ctx.cobro.services.profiles.get(ctx.merchant.id)).logo, null);
    const anonymous = new DashboardClient(ctx.app);
    assert.equal((await anonymous.get(`${T}/settings/profile`)).statusCode, 303, 'signed out: to the sign-in page');
  });
});

test('the command line checks payment settings with the same function, naming its flags', async (t) => {
  const ctx = await buildTestApp(t, 'sqlite');
  assert.ok(ctx.sqlitePath);
  const cliName = (f: string) => `--${f.replaceAll('_', '-')}`;
  assert.deepEqual(
    checkPaymentSettings({ pix_key: 'bad', pix_name: 'A', pix_city: 'B' }, paymentKeyChecks, cliName).problems.map(
      (p) => p.message,
    ),
    ['--pix-key must be a PIX key: CPF, CNPJ, +55 phone, e-mail or random key (EVP)'],
  );
  assert.deepEqual(
    checkPaymentSettings({ pix_key: '12345678901' }, paymentKeyChecks, cliName).problems.map((p) => p.message),
    ['--pix-key needs --pix-name and --pix-city (they appear in the BR Code)'],
  );
  assert.deepEqual(
    checkPaymentSettings({ bank_name: 'B' }, paymentKeyChecks, cliName).problems.map((p) => p.message),
    ['--bank-name needs --bank-holder, --bank-account and --bank-routing'],
  );
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, cobroArgs('cobro', ...args), {
        cwd: fileURLToPath(new URL('../../../', import.meta.url)),
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          SECRETS_KEY: 'dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=',
          LOG_LEVEL: 'warn',
          DATABASE_URL: `sqlite:${ctx.sqlitePath}`,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString('utf8');
      });
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
      });
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, stdout, stderr }));
    });
  const refused = await run(['settings', 'set', '--merchant', ctx.merchant.id, '--btc-xpub', BTC_TESTNET_TEST_VPUB]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.equal(refused.stderr, 'cobro: --btc-xpub: a vpub key belongs to testnet, not mainnet\n');
  assert.deepEqual(await ctx.cobro.services.merchants.getSettings(ctx.merchant.id), {}, 'nothing stored');
});
