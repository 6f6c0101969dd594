import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { after, describe } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { createPreference } from '../../support/builders.ts';
import type { Backend, BuildOptions, TestApp } from '../../support/test-app.ts';
import { buildTestApp } from '../../support/test-app.ts';

/** Debian's Chromium (TOOLCHAIN.md): the only browser the e2e suite drives. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** A reason to skip a browser suite, or false when Chromium is there. */
export const skipWithoutChromium: string | false = existsSync(CHROMIUM_PATH)
  ? false
  : `Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium); browser tests skipped`;

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The bounds of every browser wait. Playwright's own default for a launch is three minutes; a
 * Chromium that has not started in 30 s (it starts in one or two, under load in a few) will not.
 * Actions and navigations keep Playwright's 30 s default, set here on each context so no suite
 * depends on it. A test whose pages are still busy `TEST_BOUND_MS` after its first context
 * opened is stopped: its contexts close, so a call that has no timeout of its own (`content()`,
 * `evaluate()`, a response's body) fails instead of waiting for ever.
 */
export const BROWSER_BOUNDS = {
  launchMs: 30_000,
  actionMs: 30_000,
  navigationMs: 30_000,
  testMs: 180_000,
  closeMs: 15_000,
} as const;

/** Kills a process started in its own group (as Playwright starts browsers), or the process alone. */
function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
      return;
    } catch {
      // Not a group leader, or already gone.
    }
  }
}

/**
 * Starts Chromium within `timeoutMs`, or fails with what it printed: Playwright's call log holds
 * the command line and the browser's stderr; the process is killed.
 */
export async function launchChromium(options: { executablePath?: string; timeoutMs?: number } = {}): Promise<Browser> {
  const executablePath = options.executablePath ?? CHROMIUM_PATH;
  const timeout = options.timeoutMs ?? BROWSER_BOUNDS.launchMs;
  try {
    return await chromium.launch({ executablePath, args: ARGS, headless: true, timeout });
  } catch (error) {
    // Playwright colours its call log for terminals; test output is a file.
    const detail = stripVTControlCharacters(error instanceof Error ? error.message : String(error));
    // Playwright tries a graceful close for another 30 s before it kills a browser that never
    // answered; that process (and the test file's exit) need not wait for it.
    const pid = Number(/<launched> pid=(\d+)/.exec(detail)?.[1]);
    if (pid > 0) {
      killGroup(pid);
    }
    throw new Error(`Chromium (${executablePath}) did not start within ${timeout} ms.\n${detail}`, { cause: error });
  }
}

/** Resolves with `work`, or rejects after `ms` saying what did not finish. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** One browser per test file, launched on first use and closed by the file's `after` hook. */
export class SharedBrowser {
  private browser: Promise<Browser> | null = null;

  constructor(private readonly launch: () => Promise<Browser> = () => launchChromium()) {}

  get(): Promise<Browser> {
    this.browser ??= this.launch();
    return this.browser;
  }

  /**
   * A fresh context (own cookies) for one test, closed after it, with the bounds above. When
   * the test outlives `BROWSER_BOUNDS.testMs`, stderr says which test and where its pages were,
   * and the context is closed.
   */
  async context(t: TestContext, options: BrowserContextOptions = {}): Promise<BrowserContext> {
    const browser = await this.get();
    const context = await within(BROWSER_BOUNDS.actionMs, 'opening a browser context', browser.newContext(options));
    context.setDefaultTimeout(BROWSER_BOUNDS.actionMs);
    context.setDefaultNavigationTimeout(BROWSER_BOUNDS.navigationMs);
    const watchdog = setTimeout(() => {
      const where = context.pages().map((page) => page.url());
      process.stderr.write(
        `browser test "${t.fullName || t.name}" still running after ${BROWSER_BOUNDS.testMs} ms; ` +
          `its pages: ${where.join(', ') || '(none)'}; closing its browser context\n`,
      );
      void context.close().catch(() => undefined);
    }, BROWSER_BOUNDS.testMs);
    t.after(
      async () => {
        clearTimeout(watchdog);
        await within(BROWSER_BOUNDS.closeMs, 'closing a browser context', context.close());
      },
      { timeout: BROWSER_BOUNDS.closeMs + 1_000 },
    );
    return context;
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    // A browser that never started has nothing to close (its tests already failed saying why).
    const started = await browser?.catch(() => null);
    if (started) {
      await within(BROWSER_BOUNDS.closeMs, 'closing Chromium', started.close());
    }
  }
}

/**
 * A browser suite: skipped without Chromium, with one `SharedBrowser` for its tests that is
 * closed once the suite is done.
 */
export function describeInChromium(name: string, suite: (browser: SharedBrowser) => void): void {
  describe(name, { skip: skipWithoutChromium }, () => {
    const browser = new SharedBrowser();
    after(() => browser.close());
    suite(browser);
  });
}

/** A Cobro server on a free loopback port, with the test harness around it. */
export type RunningCheckout = TestApp & {
  /** `http://127.0.0.1:<port>` (checkout_url uses PUBLIC_URL, which is not this server). */
  baseUrl: string;
  checkoutUrl(prefId: string): string;
  /** Creates a PAYMENT preference through the API (test-mode merchant). */
  createPreference(overrides?: Record<string, unknown>): Promise<{ id: string }>;
};

/** Starts the service on SQLite unless `backend` says otherwise (suites that run on both use describeBackends). */
export async function startCheckout(
  t: TestContext,
  options: BuildOptions = {},
  backend: Backend = 'sqlite',
): Promise<RunningCheckout> {
  const testApp = await buildTestApp(t, backend, options);
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = testApp.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    ...testApp,
    baseUrl,
    checkoutUrl: (prefId) => `${baseUrl}/checkout/${prefId}`,
    createPreference: (overrides = {}) => createPreference(testApp.app, testApp.merchant, overrides),
  };
}

/** A tiny site on another loopback port: the merchant's return pages, or a page that frames the checkout. */
export type SideSite = { origin: string; requests: string[]; close(): Promise<void> };

export async function startSite(
  t: TestContext,
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Merchant</title><h1>Thanks from the merchant</h1>');
  },
): Promise<SideSite> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  t.after(close);
  return { origin: `http://127.0.0.1:${port}`, requests, close };
}

/** Collects what a page runs or complains about: dialogs (alert/confirm/prompt), console output and page errors. */
export type PageWatch = { dialogs: string[]; console: string[]; errors: string[] };

export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { dialogs: [], console: [], errors: [] };
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    watch.console.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    watch.errors.push(error.message);
  });
  return watch;
}

/** The checkout form's labels (its accessible names) as a payer of each language reads them. */
export type FormLabels = {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  cardNumber: string;
  cardExpiry: string;
  cardCvc: string;
  cardHolder: string;
  pay: string;
};

/** Written out here, not read from the service's tables: a wrong translation fails the test. */
export const FORM_LABELS: Readonly<Record<'en' | 'es' | 'pt', FormLabels>> = {
  en: {
    email: 'Email',
    firstName: 'First name',
    lastName: 'Last name',
    phone: 'Phone',
    cardNumber: 'Card number',
    cardExpiry: 'Expiry date (MM/YY)',
    cardCvc: 'Security code',
    cardHolder: 'Name on card',
    pay: 'Pay',
  },
  es: {
    email: 'Correo electrónico',
    firstName: 'Nombre',
    lastName: 'Apellido',
    phone: 'Teléfono',
    cardNumber: 'Número de tarjeta',
    cardExpiry: 'Fecha de vencimiento (MM/AA)',
    cardCvc: 'Código de seguridad',
    cardHolder: 'Nombre en la tarjeta',
    pay: 'Pagar',
  },
  pt: {
    email: 'E-mail',
    firstName: 'Nome',
    lastName: 'Sobrenome',
    phone: 'Telefone',
    cardNumber: 'Número do cartão',
    cardExpiry: 'Validade (MM/AA)',
    cardCvc: 'Código de segurança',
    cardHolder: 'Nome no cartão',
    pay: 'Pagar',
  },
};

/** The payer's details, typed in the form by their labels (English unless told). */
export async function fillPayer(
  page: Page,
  payer: { email: string; firstName: string; lastName: string; phone?: string } = {
    email: 'ana@example.com',
    firstName: 'Ana',
    lastName: 'Souza',
  },
  labels: FormLabels = FORM_LABELS.en,
): Promise<void> {
  await page.getByLabel(labels.email, { exact: true }).fill(payer.email);
  await page.getByLabel(labels.firstName, { exact: true }).fill(payer.firstName);
  await page.getByLabel(labels.lastName, { exact: true }).fill(payer.lastName);
  if (payer.phone) {
    await page.getByLabel(labels.phone, { exact: true }).fill(payer.phone);
  }
}

export async function fillCard(
  page: Page,
  card: { number: string; expiry?: string; cvc?: string; holder?: string },
  labels: FormLabels = FORM_LABELS.en,
): Promise<void> {
  await page.getByLabel(labels.cardNumber, { exact: true }).fill(card.number);
  await page.getByLabel(labels.cardExpiry, { exact: true }).fill(card.expiry ?? '12/34');
  await page.getByLabel(labels.cardCvc, { exact: true }).fill(card.cvc ?? '737');
  await page.getByLabel(labels.cardHolder, { exact: true }).fill(card.holder ?? 'Ana Souza');
}

export async function pay(page: Page, labels: FormLabels = FORM_LABELS.en): Promise<void> {
  await page.getByRole('button', { name: labels.pay, exact: true }).click();
}

/** What the merchant's API says about the preference's latest order. */
export async function latestOrder(
  env: RunningCheckout,
  prefId: string,
): Promise<{ id: string; status: string; payment_method_id: string; payer: { email: string | null } }> {
  const pref = await env.app.inject({ url: `/v1/checkout_preferences/${prefId}`, headers: env.merchant.authHeaders });
  const orderId = (pref.json() as { payment_order_id: string | null }).payment_order_id;
  assert.ok(orderId, pref.body);
  const order = await env.app.inject({ url: `/v1/payment_orders/${orderId}`, headers: env.merchant.authHeaders });
  return order.json();
}

/** Waits for the result page of a paid order, in English. */
export async function expectPaidResult(page: Page): Promise<void> {
  await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Payment received');
}
