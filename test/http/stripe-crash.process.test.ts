import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import { runCobro } from '../support/dist.ts';
import type { CobroProcess } from '../support/processes.ts';
import { freshPostgresDatabase, startCobroProcess, until } from '../support/processes.ts';
import type { StripeStandIn } from '../support/stripe-stand-in.ts';
import { useStripeStandIn } from '../support/stripe-stand-in.ts';
import { USD_CARD_ID } from './helpers.ts';

// A live card payment through the merchant's Stripe with the service as production runs it
// (compiled, its own process, its jobs on, live keys, the default webhook policy), killed with
// SIGKILL at the two moments where a payment could be doubled or lost:
// - between Stripe creating the order's PaymentIntent and Cobro storing it: the restarted
//   service asks again under the key fixed by the order, gets the same intent, and there is one;
// - while Stripe's signed payment_intent.succeeded is being processed: Stripe, having no 2xx,
//   sends it again, and the order is CLOSED once, with one PAYMENT_ORDER.CLOSED event.
// Then the refund and the dispute as the production server takes them: the refund asked twice
// through the API with the live key makes one refund at Stripe; the dispute sent twice is one event.
// On SQLite, and on PostgreSQL when TEST_DATABASE_URL names a server.

const standIns = useStripeStandIn();
const PUBLIC_URL = 'http://127.0.0.1:3000';

type Order = { id: string; status: string };

async function liveMerchantWithStripe(standIn: StripeStandIn, env: Record<string, string>) {
  const merchant = JSON.parse((await runCobro(['merchant', 'create', '--name', 'Tienda Ana', '--json'], env)).stdout);
  const keys = JSON.parse(
    (await runCobro(['keys', 'create', '--merchant', merchant.merchant_id, '--mode', 'live', '--json'], env)).stdout,
  );
  const account = standIn.addAccount({ live: true, name: 'Tienda Ana' });
  const connected = await runCobro(
    [
      'connect',
      'stripe',
      '--merchant',
      merchant.merchant_id,
      '--secret-key',
      account.secretKey,
      '--publishable-key',
      account.publishableKey,
      '--json',
    ],
    env,
  );
  assert.equal(connected.code, 0, connected.stderr);
  const answer = JSON.parse(connected.stdout) as { webhook_url: string; webhook_endpoint_id: string };
  const endpoint = standIn.webhookEndpoints.get(answer.webhook_endpoint_id);
  assert.ok(endpoint, 'the webhook endpoint was created at Stripe');
  return {
    account,
    endpoint,
    webhookPath: new URL(answer.webhook_url).pathname,
    auth: { 'x-api-key': keys.api_key as string, 'x-api-secret': keys.api_secret as string },
  };
}

/** The payer's plain form posts up to the card step: the order page's address. */
async function chooseCard(base: string, prefId: string): Promise<string> {
  const page = await fetch(`${base}/checkout/${prefId}`);
  assert.equal(page.status, 200);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const posted = await fetch(`${base}/checkout/${prefId}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: PUBLIC_URL },
    body: new URLSearchParams({
      csrf_token: token,
      email: 'ana@example.com',
      first_name: 'Ana',
      last_name: 'Lima',
      payment_method_id: USD_CARD_ID,
    }).toString(),
  });
  assert.equal(posted.status, 303, await posted.text());
  return String(posted.headers.get('location'));
}

const intentOnPage = (html: string) => /data-stripe-intent="([^"]+)"/.exec(html)?.[1] ?? null;

async function ordersOf(base: string, auth: Record<string, string>, prefId: string): Promise<Order[]> {
  const res = await fetch(`${base}/v1/payment_orders?checkout_preference_id=${prefId}`, { headers: auth });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: Order[] }).data;
}

async function closedEvents(base: string, auth: Record<string, string>, orderId: string): Promise<number> {
  const res = await fetch(`${base}/v1/events?entity_id=${orderId}&event_type=PAYMENT_ORDER.CLOSED`, {
    headers: auth,
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: unknown[] }).data.length;
}

async function killed(process: CobroProcess): Promise<void> {
  process.child.kill('SIGKILL');
  assert.equal(await process.exit, null, 'killed by the signal');
}

const backends: { name: string; database: (t: TestContext, dir: string) => Promise<string> }[] = [
  { name: 'SQLite', database: async (_t, dir) => `sqlite:${join(dir, 'cobro.db')}` },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: 'PostgreSQL',
          database: (t: TestContext) => freshPostgresDatabase('cobro_stripe_crash', (drop) => t.after(drop)),
        },
      ]
    : []),
];

for (const backend of backends) {
  test(`${backend.name}: a live card payment through Stripe survives kill -9 after the intent is made and during its event: one intent, one CLOSED, one event; then refunded and disputed once`, async (t) => {
    const standIn = standIns();
    const dir = mkdtempSync(join(tmpdir(), 'cobro-stripe-crash-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: await backend.database(t, dir),
      PUBLIC_URL,
      SECRETS_KEY: 'dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=',
      STRIPE_API_URL: standIn.url,
      // Long enough that the kill, not the time limit, ends the call.
      STRIPE_TIMEOUT_MS: '120000',
    };
    const { account, endpoint, webhookPath, auth } = await liveMerchantWithStripe(standIn, env);

    const first = await startCobroProcess(t, env);
    const base = `http://127.0.0.1:${first.port}`;
    const created = await fetch(`${base}/v1/checkout_preferences`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'pref-1' },
      body: JSON.stringify({
        type: 'PAYMENT',
        amount: 25,
        currency: 'USD',
        title: 'Pedido 7',
        origin: 'API',
        payment_method_types: ['CARD'],
      }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const pref = (await created.json()) as { id: string };

    // 1. Card chosen; Stripe makes the intent and its answer never comes; the process dies.
    const orderPath = await chooseCard(base, pref.id);
    standIn.hang(/^\/v1\/payment_intents$/);
    const waiting = fetch(`${base}${orderPath}`).catch((error: unknown) => error);
    // The stand-in serves every test of this file: this merchant's account is this test's.
    const intents = () => [...standIn.paymentIntents.values()].filter((i) => i.account === account.id);
    await until('the intent at Stripe', () => intents().length > 0, 60_000);
    await killed(first);
    assert.ok((await waiting) instanceof Error, 'the payer’s page never came');
    assert.equal(intents().length, 1);
    const intentId = intents()[0]?.id;

    // Restarted: the card step asks again under the order's key and shows the same intent.
    const second = await startCobroProcess(t, env);
    const again = `http://127.0.0.1:${second.port}`;
    const page = await fetch(`${again}${orderPath}`);
    assert.equal(page.status, 200);
    assert.equal(intentOnPage(await page.text()), intentId);
    assert.equal(intents().length, 1, 'one intent at Stripe');
    const [order] = await ordersOf(again, auth, pref.id);
    const asked = standIn.requests.filter((r) => r.idempotencyKey === `cobro-pi-${order?.id}`);
    assert.equal(asked.length, 2, 'asked again, under the key fixed by the order');
    assert.equal(order?.status, 'OPENED');

    // 2. The payer paid; Stripe sends its signed event and the process is killed 5 ms later, while
    //    taking it (or, on a fast machine, just after): either way Stripe has no 2xx and sends it again.
    const intent = standIn.succeed(intentId ?? '');
    const event = standIn.event({ ...endpoint, livemode: true }, 'payment_intent.succeeded', intent);
    const post = (to: string) =>
      fetch(`${to}${webhookPath}`, { method: 'POST', headers: event.headers, body: event.payload });
    const delivering = post(again).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await killed(second);
    await delivering;

    // Restarted again: Stripe, without a 2xx, sends the same event (twice, as its retries may).
    const third = await startCobroProcess(t, env);
    const last = `http://127.0.0.1:${third.port}`;
    for (let i = 0; i < 2; i++) {
      const res = await post(last);
      assert.equal(res.status, 200, await res.text());
    }
    const [paid] = await ordersOf(last, auth, pref.id);
    assert.equal(paid?.status, 'CLOSED');
    assert.equal(await closedEvents(last, auth, paid?.id ?? ''), 1, 'one PAYMENT_ORDER.CLOSED');
    assert.equal(intents().length, 1);

    // 3. After the payment, as the merchant's own code would: a refund through the API with the
    //    live key (asked twice, refunded once at Stripe), and a dispute Stripe sends twice.
    for (let i = 0; i < 2; i++) {
      const refunded = await fetch(`${last}/v1/payment_orders/${paid?.id}/refunds`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `refund-${i}` },
        body: '{}',
      });
      assert.ok([200, 409].includes(refunded.status), await refunded.text());
    }
    const [refundedOrder] = await ordersOf(last, auth, pref.id);
    assert.equal(refundedOrder?.status, 'REFUNDED');
    assert.equal([...standIn.refunds.values()].filter((r) => r.payment_intent === intentId).length, 1);
    const dispute = standIn.event(
      { ...endpoint, livemode: true },
      'charge.dispute.created',
      standIn.dispute(intentId ?? ''),
    );
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${last}${webhookPath}`, {
        method: 'POST',
        headers: dispute.headers,
        body: dispute.payload,
      });
      assert.equal(res.status, 200, await res.text());
    }
    const disputed = await fetch(`${last}/v1/events?entity_id=${paid?.id}&event_type=PAYMENT_ORDER.DISPUTED`, {
      headers: auth,
    });
    assert.equal(((await disputed.json()) as { data: unknown[] }).data.length, 1, 'one PAYMENT_ORDER.DISPUTED');
    assert.deepEqual(standIn.violations, []);
  });
}
