/**
 * The hosted checkout's part of `npm run screenshots` (alone: `npm run screenshots -- checkout`):
 * the form with Card chosen in English, Spanish and Portuguese; the card step of a browser
 * without JavaScript, the instructions of PIX, crypto, bank transfer and cash, and the page
 * after a card payment, each in the language of a payer of its currency. Every page at 390 and
 * 1280 px, as docs/screenshots/checkout-<page>-<language>-<width>.png. The language is the
 * browser's (sent as Accept-Language); the payer's fields and buttons are found by ids and
 * data-test attributes, never by their text, so any page can be photographed in any language.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

type Api = (method: 'GET' | 'POST', url: string, payload?: object) => Promise<{ id: string }>;

/** Language tags without a region: the page writes money as the currency's home country does. */
type Language = 'en' | 'es' | 'pt';
const WIDTHS = [390, 1280] as const;

type MethodType = 'CARD' | 'PIX' | 'CRYPTO_ONCHAIN' | 'BANK_TRANSFER' | 'CASH';

type Shot = {
  name: string;
  /** The currency decides which methods are offered (PIX takes BRL, OXXO and the MXN bank transfer MXN). */
  currency: 'BRL' | 'USD' | 'MXN';
  amount: number;
  title: string;
  /** One picture per language and width (a page in every language only where its words matter most). */
  languages: readonly Language[];
  /** False: a browser with JavaScript off (the card step). */
  javaScript: boolean;
  /** From the filled-in form to the page to photograph. */
  reach: (page: Page) => Promise<void>;
};

async function choose(page: Page, type: MethodType): Promise<void> {
  await page.locator(`input[name="payment_method_id"][data-method-type="${type}"]`).first().check();
}

async function pay(page: Page): Promise<void> {
  await page.locator('[data-test="pay-button"]').click();
}

async function payWith(page: Page, type: MethodType, shown: string): Promise<void> {
  await choose(page, type);
  await pay(page);
  await page.locator(shown).first().waitFor();
}

const SHOTS: readonly Shot[] = [
  {
    name: 'card',
    currency: 'BRL',
    amount: 49.9,
    title: 'Tea for two',
    languages: ['en', 'es', 'pt'],
    javaScript: true,
    reach: async (page) => {
      await choose(page, 'CARD');
      await page.locator('#card_number').waitFor();
    },
  },
  {
    name: 'card-step',
    currency: 'BRL',
    amount: 49.9,
    title: 'Tea for two',
    languages: ['pt'],
    javaScript: false,
    reach: (page) => payWith(page, 'CARD', '#card-step-title'),
  },
  {
    name: 'pix',
    currency: 'BRL',
    amount: 49.9,
    title: 'Tea for two',
    languages: ['pt'],
    javaScript: true,
    reach: (page) => payWith(page, 'PIX', '[data-test="pix-payload"]'),
  },
  {
    name: 'crypto',
    currency: 'USD',
    amount: 16.9,
    title: 'Gift box',
    languages: ['en'],
    javaScript: true,
    reach: (page) => payWith(page, 'CRYPTO_ONCHAIN', '[data-test="crypto-uri"]'),
  },
  {
    name: 'bank-transfer',
    currency: 'MXN',
    amount: 1234.5,
    title: 'Wholesale order',
    languages: ['es'],
    javaScript: true,
    reach: (page) => payWith(page, 'BANK_TRANSFER', '[data-test="bank-details"]'),
  },
  {
    name: 'cash',
    currency: 'MXN',
    amount: 200,
    title: 'Matcha',
    languages: ['es'],
    javaScript: true,
    reach: (page) => payWith(page, 'CASH', '[data-test="cash-voucher"]'),
  },
  {
    name: 'paid',
    currency: 'BRL',
    amount: 49.9,
    title: 'Tea for two',
    languages: ['pt'],
    javaScript: true,
    reach: async (page) => {
      await choose(page, 'CARD');
      await page.locator('#card_number').fill('4242 4242 4242 4242');
      await page.locator('#card_expiry').fill('12/34');
      await page.locator('#card_cvc').fill('737');
      await page.locator('#card_holder_name').fill('Ana Souza');
      await pay(page);
      await page.locator('[data-test="result-paid"]').waitFor();
    },
  },
];

/** Photographs every checkout page in every language at every width; returns how many files it wrote. */
export async function checkoutScreenshots(options: {
  browser: Browser;
  base: string;
  api: Api;
  out: string;
}): Promise<number> {
  let written = 0;
  for (const shot of SHOTS) {
    for (const language of shot.languages) {
      const pref = await options.api('POST', '/v1/checkout_preferences', {
        type: 'PAYMENT',
        amount: shot.amount,
        currency: shot.currency,
        title: shot.title,
        origin: 'API',
        external_id: `order-${2001 + written}`,
      });
      const context = await options.browser.newContext({ locale: language, javaScriptEnabled: shot.javaScript });
      try {
        const page = await context.newPage();
        await page.setViewportSize({ width: WIDTHS[0], height: 844 });
        await page.goto(`${options.base}/checkout/${pref.id}`);
        await page.locator('#email').fill('ana@example.com');
        await page.locator('#first_name').fill('Ana');
        await page.locator('#last_name').fill('Souza');
        await shot.reach(page);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
          await page.screenshot({
            path: join(options.out, `checkout-${shot.name}-${language}-${width}.png`),
            fullPage: true,
          });
          written++;
        }
      } finally {
        await context.close();
      }
    }
  }
  return written;
}
