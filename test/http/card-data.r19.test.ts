import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import fc from 'fast-check';
import { createPreference } from '../support/builders.ts';
import { describeBackends } from '../support/test-app.ts';

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

describeBackends('R19 card data never at rest', (build) => {
  test('1,000 card submissions leave no card number or CVC in the database files, the logs or any answer', async (t) => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
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
    assert.ok(lines.length > 0, 'the log capture saw the requests');
  });
});
