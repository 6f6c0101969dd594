/**
 * `npm run screenshots`: PNGs of every dashboard page at 1280 and 390 px wide, and of the hosted
 * checkout's pages in each language (scripts/screenshots-checkout.ts), into docs/screenshots/.
 * `npm run screenshots -- dashboard` or `-- checkout` takes one part only. Starts Cobro on a
 * throwaway SQLite database, makes a little of everything through the API (payments, a refund,
 * a plan, a subscriber, a webhook endpoint), signs in an owner through the invitation and
 * photographs each page in Debian's Chromium.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config/config.ts';
import { CLI_ACTOR } from '../src/domain/dashboard/audit.ts';
import { createCobro } from '../src/main.ts';
import { checkoutScreenshots } from './screenshots-checkout.ts';

const OUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const PASSWORD = 'correct horse battery staple';
const PARTS = ['dashboard', 'checkout'] as const;
const asked = process.argv.slice(2);
const unknown = asked.filter((part) => !(PARTS as readonly string[]).includes(part));
if (unknown.length > 0) {
  process.stderr.write(`unknown part ${unknown.join(', ')}: say ${PARTS.join(' or ')}, or nothing for both\n`);
  process.exit(2);
}
const parts = new Set(asked.length > 0 ? asked : PARTS);

const dir = mkdtempSync(join(tmpdir(), 'cobro-screenshots-'));
const config = loadConfig({
  DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}`,
  SECRETS_KEY: 'c2NyZWVuc2hvdHMtb25seS1rZXktMzItYnl0ZXMhISE=',
  RATE_LIMIT_PER_SECOND: '100000',
});
const cobro = await createCobro(config, { logger: pino({ level: 'silent' }), jobs: false });
await cobro.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(cobro.app.server.address() as AddressInfo).port}`;

try {
  /** The API as one merchant's test keys call it. */
  const apiOf = (keys: { apiKey: string; apiSecret: string }) => {
    const headers = { 'x-api-key': keys.apiKey, 'x-api-secret': keys.apiSecret };
    return async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await cobro.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) {
        throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      }
      return res.json();
    };
  };
  const merchant = await cobro.services.merchants.createMerchant('Tea House', 'test');
  const api = apiOf(merchant);
  let orderId = '';
  let preferenceId = '';
  for (const [i, [amount, method]] of (
    [
      [16.9, 'CARD'],
      [42, 'CARD'],
      [9.5, 'PIX'],
      [120, 'BANK_TRANSFER'],
    ] as const
  ).entries()) {
    const pref = await api('POST', '/v1/checkout_preferences', {
      type: 'PAYMENT',
      amount,
      currency: method === 'PIX' ? 'BRL' : 'USD',
      title: ['Tea for two', 'Gift box', 'Matcha', 'Wholesale order'][i],
      origin: 'API',
      external_id: `order-${1001 + i}`,
      payer: { email: `payer${i}@example.com`, first_name: ['Ana', 'Bruno', 'Carla', 'Diego'][i] },
      payment_method_types: [method],
    });
    const order = await api('POST', `/v1/test_helpers/checkout_preferences/${pref.id}/pay`, {
      ...(method === 'BANK_TRANSFER' ? { outcome: 'PENDING' } : {}),
    });
    if (i === 0) {
      orderId = order.id;
      preferenceId = pref.id;
    }
    if (i === 1) {
      await api('POST', `/v1/payment_orders/${order.id}/refunds`, { reason: 'returned' });
    }
  }
  const plan = await api('POST', '/v1/payment_links', {
    title: 'Tea club',
    amount: 19.9,
    currency: 'USD',
    interval_type: 'MONTH',
    interval_count: 12,
  });
  const sub = await api('POST', '/v1/checkout_preferences', {
    type: 'SUBSCRIPTION',
    payment_link_id: plan.id,
    origin: 'API',
  });
  await api('POST', `/v1/test_helpers/checkout_preferences/${sub.id}/pay`, {});
  const recs = await api('GET', '/v1/recurrent_payments');

  const email = 'owner@teahouse.example';
  const invitation = await cobro.services.dashboard.team.invite(merchant.merchantId, email, 'owner', CLI_ACTOR);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  mkdirSync(OUT, { recursive: true });
  if (parts.has('checkout')) {
    // A merchant of its own: the payments made for these pages stay out of the dashboard's pictures.
    const shop = await cobro.services.merchants.createMerchant('Café Aurora', 'test');
    const written = await checkoutScreenshots({ browser, base, api: apiOf(shop), out: OUT });
    process.stdout.write(`wrote ${written} checkout screenshots to docs/screenshots/\n`);
  }
  if (parts.has('dashboard')) {
    const page = await browser.newPage();
    await page.goto(`${base}${new URL(invitation.inviteUrl).pathname}`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/dashboard\/login$/);
    const shoot = async (name: string, path: string) => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.goto(`${base}${path}`);
        await page.screenshot({ path: join(OUT, `${name}-${width}.png`), fullPage: true });
      }
    };
    await shoot('sign-in', '/dashboard/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    const t = '/dashboard/test';
    const pages: [string, string][] = [
      ['home', `${t}?range=7d`],
      ['payments', `${t}/payments`],
      ['checkout-preferences', `${t}/checkout_preferences`],
      ['checkout-preference', `${t}/checkout_preferences/${preferenceId}`],
      ['payment-order', `${t}/payment_orders/${orderId}`],
      ['refund', `${t}/payment_orders/${orderId}/refund`],
      ['new-payment', `${t}/payments/new`],
      ['subscriptions', `${t}/subscriptions`],
      ['plan', `${t}/payment_links/${plan.id}`],
      ['plan-editor', `${t}/payment_links/${plan.id}/edit`],
      ['new-plan', `${t}/payment_links/new`],
      ['subscribers', `${t}/recurrent_payments`],
      ['subscriber', `${t}/recurrent_payments/${recs.data[0]?.id ?? ''}`],
      ['developers', `${t}/developers`],
      ['api-keys', `${t}/developers/keys`],
      ['webhook-endpoints', `${t}/webhook_endpoints`],
      ['events', `${t}/events`],
      ['settings', `${t}/settings`],
      ['profile', `${t}/settings/profile`],
      ['payment-settings', `${t}/settings/payments`],
      ['security', `${t}/settings/security`],
      ['team', `${t}/settings/team`],
      ['audit-log', `${t}/settings/audit`],
    ];
    for (const [name, path] of pages) {
      await shoot(name, path);
    }
    process.stdout.write(`wrote ${(pages.length + 1) * 2} dashboard screenshots to docs/screenshots/\n`);
  }
  await browser.close();
} finally {
  await cobro.close();
  rmSync(dir, { recursive: true, force: true });
}
