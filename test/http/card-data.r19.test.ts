import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import fc from 'fast-check';
import { createPreference } from '../support/builders.ts';
import type { Session } from '../support/page-forms.ts';
import { cookieFrom, hiddenFieldsOf, postForm, tokenFrom } from '../support/page-forms.ts';
import type { TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';
import { USD_BANK_TRANSFER_ID, USD_CARD_ID } from './helpers.ts';

/** A Luhn-valid number of `length` digits starting with `prefix`. */
function luhnComplete(prefix: string, length: number, rand: () => number): string {
  let body = prefix;
  while (body.length < length - 1) {
    body += Math.floor(rand() * 10).toString();
  }
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** Every log line the service writes, at every level. */
function logCapture(): { lines: string[]; logStream: Writable } {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logStream };
}

/** Everything a card could have been left in: the logs, the answers given, the database (files or tables). */
async function storedAndLogged(ctx: TestApp, lines: string[], answers: string[]): Promise<[string, string][]> {
  // The last log lines are written just after the last answer.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const haystacks: [string, string][] = [
    ['logs', lines.join('')],
    ['answers', answers.join('\n')],
  ];
  if (ctx.sqlitePath) {
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        haystacks.push([`sqlite${suffix}`, readFileSync(`${ctx.sqlitePath}${suffix}`).toString('latin1')]);
      } catch {
        // -shm / -wal may not exist after a checkpoint.
      }
    }
  } else {
    const tables = [
      'payment_orders',
      'events',
      'checkout_preferences',
      'idempotency_keys',
      'webhook_deliveries',
    ] as const;
    for (const table of tables) {
      const rows = await ctx.cobro.database.db.selectFrom(table).selectAll().execute();
      haystacks.push([table, JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))]);
    }
  }
  return haystacks;
}

/** Fails on any card number (plain, spaced or dashed) or CVC (next to a card word) found in `haystacks`. */
function assertNoCardData(cards: readonly { pan: string; cvc: string }[], haystacks: [string, string][]): void {
  let panHits = 0;
  let cvcHits = 0;
  for (const card of cards) {
    const forms = [card.pan, card.pan.replace(/(\d{4})(?=\d)/g, '$1 '), card.pan.replace(/(\d{4})(?=\d)/g, '$1-')];
    for (const [where, text] of haystacks) {
      for (const form of forms) {
        const at = text.indexOf(form);
        if (at >= 0) {
          panHits++;
          assert.fail(`card number ${form} found in ${where}: …${text.slice(Math.max(0, at - 300), at + 300)}…`);
        }
      }
      // A CVC next to a card word, in any stored or logged form.
      if (new RegExp(`(cvc|cvv|security_code|securityCode)\\W{0,4}${card.cvc}\\b`, 'i').test(text)) {
        cvcHits++;
        assert.fail(`CVC found in ${where}`);
      }
    }
  }
  assert.equal(panHits + cvcHits, 0);
}

describeBackends('R19 card data never at rest', (build) => {
  test('1,000 card submissions leave no card number or CVC in the database files, the logs or any answer', async (t) => {
    const { lines, logStream } = logCapture();
    const ctx = await build(t, { logStream, logLevel: 'trace' });
    const rand = fc.sample(fc.double({ min: 0, max: 0.999999, noNaN: true }), { numRuns: 40_000, seed: 19 });
    let r = 0;
    const next = () => rand[r++ % rand.length] ?? 0.5;
    const fixed = ['4242424242424242', '5555555555554444', '378282246310005', '4000000000000002', '4000000000009995'];
    const cards: { pan: string; cvc: string }[] = [];
    for (let i = 0; i < 1000; i++) {
      const pan =
        i < fixed.length * 20
          ? (fixed[i % fixed.length] ?? '4242424242424242')
          : luhnComplete(['4', '51', '2221', '6011'][i % 4] ?? '4', [13, 16, 19][i % 3] ?? 16, next);
      // Distinct, unusual CVCs so a hit cannot be a coincidence.
      cards.push({ pan, cvc: (pan.startsWith('37') ? 7000 + i : 100 + (i % 900)).toString().padStart(3, '0') });
    }
    const methods = await ctx.cobro.services.paymentMethods.list({ type: 'CARD', currency: 'USD' });
    const answers: string[] = [];
    for (const [i, card] of cards.entries()) {
      const pref = await createPreference(ctx.app, ctx.merchant, {
        payment_method_types: ['CARD'],
        amount: 5 + (i % 50),
      });
      // Every tenth submission is malformed (bad expiry or short CVC): refused before any write.
      const malformed = i % 10 === 9;
      try {
        const order = await ctx.cobro.services.paymentStart.start(pref.id, {
          paymentMethodId: methods[0]?.id ?? null,
          payer: { email: `p${i}@example.com`, first_name: 'Card', last_name: 'Holder' },
          card: {
            number: i % 2 === 0 ? card.pan.replace(/(\d{4})(?=\d)/g, '$1 ') : card.pan,
            expiry: malformed ? '13/99' : '12/39',
            cvc: malformed ? '1' : card.cvc,
            holderName: 'Card Holder',
          },
        });
        const res = await ctx.app.inject({ url: `/v1/payment_orders/${order.id}`, headers: ctx.merchant.authHeaders });
        answers.push(res.body);
      } catch (error) {
        answers.push(JSON.stringify(error));
      }
    }
    assertNoCardData(cards, await storedAndLogged(ctx, lines, answers));
    assert.ok(lines.length > 0, 'the log capture saw the requests');
  });

  test('cards typed on the checkout pages, through the card step or beside another method, are in no file, log or page', async (t) => {
    const { lines, logStream } = logCapture();
    const ctx = await build(t, { logStream, logLevel: 'trace' });
    const answers: string[] = [];
    const cards: { pan: string; cvc: string }[] = [];
    const post = async (prefId: string, session: Session, fields: Record<string, string>) => {
      const res = await postForm(ctx.app, `/checkout/${prefId}`, session, fields);
      answers.push(res.body);
      if (res.statusCode === 303) {
        answers.push((await ctx.app.inject({ url: String(res.headers.location) })).body);
      }
      return res;
    };
    const payer = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza', phone: '' };
    for (let i = 0; i < 30; i++) {
      const pan = luhnComplete(['4', '51', '2221'][i % 3] ?? '4', 16, () => ((i * 7 + 3) % 10) / 10);
      const cvc = (200 + i * 11).toString();
      cards.push({ pan, cvc });
      const card = { card_number: pan, card_expiry: '12/39', card_cvc: cvc, card_holder_name: 'Ana Souza' };
      const pref = await createPreference(ctx.app, ctx.merchant, { amount: 5 + i });
      const first = await ctx.app.inject({ url: `/checkout/${pref.id}` });
      const session = { cookie: cookieFrom(first) ?? '', token: tokenFrom(first.body) };
      if (i % 3 === 2) {
        // Typed, then another method chosen: the card travels with the post and goes no further.
        const res = await post(pref.id, session, { ...payer, payment_method_id: USD_BANK_TRANSFER_ID, ...card });
        assert.equal(res.statusCode, 303, res.body);
        continue;
      }
      // No script: Card chosen, then the card step.
      const step = await post(pref.id, session, { ...payer, payment_method_id: USD_CARD_ID });
      assert.equal(step.statusCode, 200, step.body);
      const carried = hiddenFieldsOf(step.body);
      if (i % 3 === 1) {
        // A card refused there (expired), then the way back to the methods with the new card typed.
        const refused = await post(pref.id, session, { ...carried, ...card, card_expiry: '01/20' });
        assert.equal(refused.statusCode, 400, refused.body);
        const back = await post(pref.id, session, { ...carried, ...card, back: 'methods' });
        assert.equal(back.statusCode, 200, back.body);
        continue;
      }
      const paid = await post(pref.id, session, { ...carried, ...card });
      assert.equal(paid.statusCode, 303, paid.body);
    }
    assertNoCardData(cards, await storedAndLogged(ctx, lines, answers));
    assert.ok(
      lines.some((line) => line.includes('/checkout/')),
      'the log capture saw the page requests',
    );
  });
});
