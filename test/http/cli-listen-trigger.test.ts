import assert from 'node:assert/strict';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { createPreference } from '../support/builders.ts';
import { cobroArgs } from '../support/dist.ts';
import { pay } from '../support/payments.ts';
import type { TestApp, TestMerchant } from '../support/test-app.ts';
import { buildTestApp } from '../support/test-app.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * `cobro listen` and `cobro trigger` against a real server on loopback, run as the developer runs
 * them: a child process of the command line, with the key pair in the environment.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Run = { child: ChildProcessWithoutNullStreams; stdout: () => string; stderr: () => string; exit: Promise<number> };

function cobroCli(t: TestContext, args: string[], merchant: TestMerchant, env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, cobroArgs('cobro', ...args), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      COBRO_API_KEY: merchant.apiKey,
      COBRO_API_SECRET: merchant.apiSecret,
      ...env,
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
  const exit = new Promise<number>((resolve) =>
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1))),
  );
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
    }
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Waits (bounded) until `ready` holds. */
async function waitFor(ready: () => boolean, what: string, maxMs = 20_000): Promise<void> {
  const started = Date.now();
  for (let i = 0; i < 10_000 && Date.now() - started < maxMs; i++) {
    if (ready()) {
      return;
    }
    await sleep(50);
  }
  assert.fail(`${what}: not after ${maxMs} ms`);
}

async function serve(t: TestContext): Promise<TestApp & { apiUrl: string }> {
  const ctx = await buildTestApp(t, 'sqlite');
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  return { ...ctx, apiUrl: `http://127.0.0.1:${port}` };
}

describe('cobro listen', () => {
  test('forwards each new event to the local URL, signed with the merchant secret, and prints one line per event', async (t) => {
    const ctx = await serve(t);
    const { app, merchant } = ctx;
    const before = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    const old = await pay(app, merchant, before.id);
    assert.equal(old.statusCode, 201, old.body);

    const local = await startReceiver((_r, n) => ({ status: n === 2 ? 500 : 200 }));
    t.after(() => local.close());
    const forwardTo = `${local.url}/webhooks?source=cli`;
    const run = cobroCli(t, ['listen', '--forward-to', forwardTo, '--api-url', ctx.apiUrl], merchant);
    // Two lines, two writes: the second may arrive in a later chunk than the first.
    await waitFor(() => run.stderr().includes('Press Ctrl-C'), `listen to start (stderr: ${run.stderr()})`);
    assert.match(run.stderr(), /Ready! Forwarding events from /);
    assert.match(run.stderr(), /Deliveries are signed with whsec_/);

    const card = await createPreference(app, merchant, { payment_method_types: ['CARD'], external_id: 'cli-1' });
    const closed = (await pay(app, merchant, card.id)).json();
    const pix = await createPreference(app, merchant, { currency: 'BRL', payment_method_types: ['PIX'] });
    const opened = (await pay(app, merchant, pix.id, { outcome: 'PENDING' })).json();
    await waitFor(() => run.stdout().trim().split('\n').length >= 3, `3 lines (stdout: ${run.stdout()})`);
    await sleep(1500);

    const secret = String(
      (await app.inject({ method: 'GET', url: '/v1/webhook_settings', headers: merchant.authHeaders })).json()
        .signing_secret,
    );
    const events = (
      await app.inject({ method: 'GET', url: '/v1/events?limit=100', headers: merchant.authHeaders })
    ).json().data as { id: string; event_type: string; entity_id: string; data: Record<string, unknown> }[];
    const fresh = events.filter((e) => e.entity_id !== old.json().id);
    assert.equal(fresh.length, 3, JSON.stringify(events));
    assert.equal(local.received.length, 3, 'only events after the start, each once');
    const verifier = new Webhook(secret);
    for (const r of local.received) {
      assert.equal(r.url, '/webhooks?source=cli');
      assert.equal(r.headers['content-type'], 'application/json');
      const body = verifier.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });
      const event = fresh.find((e) => e.id === r.headers['webhook-id']);
      assert.ok(event, `forwarded an unknown or old event: ${r.body}`);
      assert.deepEqual(body, event.data);
    }
    const lines = run.stdout().trim().split('\n');
    assert.equal(lines.length, 3, run.stdout());
    const answers = new Map([[String(local.received[1]?.headers['webhook-id']), '[500]']]);
    for (const event of fresh) {
      const line = lines.find((l) => l.includes(`[${event.id}]`));
      assert.ok(line, `no line for ${event.id}: ${run.stdout()}`);
      assert.ok(line.includes(`  ${event.event_type}  ${event.entity_id}  `), line);
      assert.ok(line.includes(`${answers.get(event.id) ?? '[200]'} POST ${forwardTo}`), line);
      assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}/);
    }
    assert.deepEqual(new Set(fresh.map((e) => e.entity_id)), new Set([closed.id, opened.id]));
    run.child.kill('SIGTERM');
    assert.equal(await run.exit, 0, run.stderr());
  });

  test('refuses to start without credentials or without --forward-to, with exit code 2', async (t) => {
    const noKeys = cobroCli(t, ['listen', '--forward-to', 'http://127.0.0.1:9/x'], {
      id: 'x',
      apiKey: '',
      apiSecret: '',
      mode: 'test',
      authHeaders: {},
    });
    assert.equal(await noKeys.exit, 2, noKeys.stderr());
    assert.match(noKeys.stderr(), /COBRO_API_KEY and COBRO_API_SECRET/);
    const noTarget = cobroCli(t, ['listen'], {
      id: 'x',
      apiKey: 'ck_test_x',
      apiSecret: 'cs_test_x',
      mode: 'test',
      authHeaders: {},
    });
    assert.equal(await noTarget.exit, 2, noTarget.stderr());
    assert.match(noTarget.stderr(), /--forward-to/);
  });
});

describe('cobro trigger', () => {
  test('makes every payment-order event through the API and prints the ids of what it made', async (t) => {
    const ctx = await serve(t);
    const types = [
      ['PAYMENT_ORDER.OPENED', 'OPENED'],
      ['PAYMENT_ORDER.CLOSED', 'CLOSED'],
      ['PAYMENT_ORDER.REJECTED', 'REJECTED'],
      ['PAYMENT_ORDER.EXPIRED', 'EXPIRED'],
      ['PAYMENT_ORDER.REFUNDED', 'REFUNDED'],
    ] as const;
    // CLOSED in the words a developer reads; the others as JSON, to check every id.
    const runs = types.map(([type]) =>
      cobroCli(
        t,
        ['trigger', type, '--api-url', ctx.apiUrl, ...(type === 'PAYMENT_ORDER.CLOSED' ? [] : ['--json'])],
        ctx.merchant,
      ),
    );
    const codes = await Promise.all(runs.map((r) => r.exit));
    for (const [i, [type, status]] of types.entries()) {
      const run = runs[i];
      assert.ok(run);
      assert.equal(codes[i], 0, `${type}: ${run.stderr()}`);
      let out: {
        event_type: string;
        checkout_preference_id: string;
        payment_order_id: string;
        status: string;
        events: { id: string; event_type: string }[];
      };
      if (type === 'PAYMENT_ORDER.CLOSED') {
        const m =
          /^Triggered PAYMENT_ORDER\.CLOSED\n {2}checkout_preference {2}(\w{22})\n {2}payment_order {8}(\w{22}) {2}CLOSED\n {2}event {16}(\w{22}) {2}PAYMENT_ORDER\.OPENED\n {2}event {16}(\w{22}) {2}PAYMENT_ORDER\.CLOSED\n$/.exec(
            run.stdout(),
          );
        assert.ok(m?.[1] && m[2] && m[3] && m[4], run.stdout());
        out = {
          event_type: type,
          checkout_preference_id: m[1],
          payment_order_id: m[2],
          status: 'CLOSED',
          events: [
            { id: m[3], event_type: 'PAYMENT_ORDER.OPENED' },
            { id: m[4], event_type: 'PAYMENT_ORDER.CLOSED' },
          ],
        };
      } else {
        out = JSON.parse(run.stdout());
      }
      assert.equal(out.event_type, type);
      assert.equal(out.status, status);
      const order = await ctx.app.inject({
        method: 'GET',
        url: `/v1/payment_orders/${out.payment_order_id}`,
        headers: ctx.merchant.authHeaders,
      });
      assert.equal(order.statusCode, 200, order.body);
      assert.equal(order.json().status, status, order.body);
      assert.equal(order.json().checkout_preference_id, out.checkout_preference_id, order.body);
      assert.equal(out.events[0]?.event_type, 'PAYMENT_ORDER.OPENED', run.stdout());
      const last = out.events[out.events.length - 1];
      assert.equal(last?.event_type, type, run.stdout());
      const event = await ctx.app.inject({
        method: 'GET',
        url: `/v1/events/${last?.id}`,
        headers: ctx.merchant.authHeaders,
      });
      assert.equal(event.statusCode, 200, event.body);
      assert.equal(event.json().entity_id, out.payment_order_id);
    }
  });

  test('makes every recurrent-payment event through the API: a plan, a SUBSCRIPTION checkout, then pay, clock or DELETE', async (t) => {
    const ctx = await serve(t);
    const types = [
      ['RECURRENT_PAYMENT.PENDING', 'PENDING'],
      ['RECURRENT_PAYMENT.TRIALING', 'TRIALING'],
      ['RECURRENT_PAYMENT.ACTIVE', 'ACTIVE'],
      ['RECURRENT_PAYMENT.UNPAID', 'UNPAID'],
      ['RECURRENT_PAYMENT.CANCELED', 'CANCELED'],
      ['RECURRENT_PAYMENT.COMPLETE', 'COMPLETE'],
      ['RECURRENT_PAYMENT.INCOMPLETE', 'INCOMPLETE'],
      ['RECURRENT_PAYMENT.REJECTED', 'REJECTED'],
      ['RECURRENT_PAYMENT.EXPIRED', 'EXPIRED'],
    ] as const;
    // One merchant per event: several flows move the merchant's test clock, which would age the others.
    const merchants = await Promise.all(types.map(() => ctx.createMerchant('test')));
    const runs = types.map(([type], i) =>
      cobroCli(
        t,
        ['trigger', type, '--api-url', ctx.apiUrl, ...(type === 'RECURRENT_PAYMENT.ACTIVE' ? [] : ['--json'])],
        merchants[i] ?? ctx.merchant,
      ),
    );
    const codes = await Promise.all(runs.map((r) => r.exit));
    for (const [i, [type, status]] of types.entries()) {
      const run = runs[i];
      const merchant = merchants[i];
      assert.ok(run && merchant);
      assert.equal(codes[i], 0, `${type}: ${run.stderr()}`);
      let out: {
        event_type: string;
        checkout_preference_id: string;
        payment_order_id: string;
        recurrent_payment_id: string;
        payment_link_id: string;
        status: string;
        events: { id: string; event_type: string }[];
      };
      if (type === 'RECURRENT_PAYMENT.ACTIVE') {
        const m =
          /^Triggered RECURRENT_PAYMENT\.ACTIVE\n {2}payment_link {9}(\w{22})\n {2}checkout_preference {2}(\w{22})\n {2}recurrent_payment {4}(\w{22}) {2}ACTIVE\n {2}first payment_order {2}(\w{22})\n {2}event {16}(\w{22}) {2}RECURRENT_PAYMENT\.PENDING\n {2}event {16}(\w{22}) {2}RECURRENT_PAYMENT\.ACTIVE\n$/.exec(
            run.stdout(),
          );
        assert.ok(m?.[1] && m[2] && m[3] && m[4] && m[5] && m[6], run.stdout());
        out = {
          event_type: type,
          payment_link_id: m[1],
          checkout_preference_id: m[2],
          recurrent_payment_id: m[3],
          payment_order_id: m[4],
          status: 'ACTIVE',
          events: [
            { id: m[5], event_type: 'RECURRENT_PAYMENT.PENDING' },
            { id: m[6], event_type: 'RECURRENT_PAYMENT.ACTIVE' },
          ],
        };
      } else {
        out = JSON.parse(run.stdout());
      }
      assert.equal(out.event_type, type);
      assert.equal(out.status, status, run.stdout());
      const rec = await ctx.app.inject({
        method: 'GET',
        url: `/v1/recurrent_payments/${out.recurrent_payment_id}`,
        headers: merchant.authHeaders,
      });
      assert.equal(rec.statusCode, 200, rec.body);
      assert.equal(rec.json().status, status, rec.body);
      assert.equal(rec.json().payment_link_id, out.payment_link_id, rec.body);
      assert.equal(rec.json().checkout_preference_id, out.checkout_preference_id, rec.body);
      assert.equal(out.events[0]?.event_type, 'RECURRENT_PAYMENT.PENDING', run.stdout());
      const last = out.events[out.events.length - 1];
      assert.equal(last?.event_type, type, run.stdout());
      const event = await ctx.app.inject({
        method: 'GET',
        url: `/v1/events/${last?.id}`,
        headers: merchant.authHeaders,
      });
      assert.equal(event.statusCode, 200, event.body);
      assert.equal(event.json().entity_id, out.recurrent_payment_id);
      assert.equal(event.json().entity_type, 'RECURRENT_PAYMENT');
    }
  });

  test('answers unknown types, a missing type and live keys with a clear message and exit code 2', async (t) => {
    const ctx = await serve(t);
    const live = await ctx.createMerchant('live');
    const cases: [string[], TestMerchant, RegExp][] = [
      [['trigger', 'PAYMENT_ORDER.PAID'], ctx.merchant, /unknown event type "PAYMENT_ORDER\.PAID"/],
      [['trigger', 'RECURRENT_PAYMENT.PAUSED'], ctx.merchant, /unknown event type "RECURRENT_PAYMENT\.PAUSED"/],
      [['trigger'], ctx.merchant, /trigger needs an event type/],
      [['trigger', 'PAYMENT_ORDER.CLOSED'], live, /test keys only/],
      [['trigger', 'RECURRENT_PAYMENT.ACTIVE'], live, /test keys only/],
    ];
    const runs = cases.map(([args, m]) => cobroCli(t, [...args, '--api-url', ctx.apiUrl], m));
    for (const [i, [args, , message]] of cases.entries()) {
      const run = runs[i];
      assert.ok(run);
      assert.equal(await run.exit, 2, `${args.join(' ')}: ${run.stderr()}`);
      assert.match(run.stderr(), message);
      assert.equal(run.stdout(), '');
    }
    assert.match(runs[0]?.stderr() ?? '', /Triggerable: .*RECURRENT_PAYMENT\.EXPIRED/);
    const events = await ctx.app.inject({ method: 'GET', url: '/v1/events', headers: ctx.merchant.authHeaders });
    assert.deepEqual(events.json().data, [], 'nothing was made');
  });
});
