import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import fc from 'fast-check';
import type { ProcessorResult } from '../../../src/domain/payment-methods/test-card-charge.ts';
import { luhnValid } from '../../../src/providers/card/card-number.ts';
import type { AuthorizeRequest } from '../../../src/providers/card/test-card-processor.ts';
import { IdempotencyKeyReuseError, TestCardProcessor } from '../../../src/providers/card/test-card-processor.ts';
import { outcomeForPan, TEST_CARDS } from '../../../src/providers/card/test-cards.ts';
import { MemoryProcessorStore } from '../../support/memory-processor-store.ts';

function clock(start = '2026-01-15T12:00:00Z'): { now: () => Date; advance: (ms: number) => void } {
  let t = new Date(start).getTime();
  return { now: () => new Date(t), advance: (ms) => (t += ms) };
}

let keySeq = 0;
function request(pan: string, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  keySeq += 1;
  return {
    pan,
    expMonth: 12,
    expYear: 2030,
    cvc: pan.startsWith('3') && (pan.startsWith('34') || pan.startsWith('37')) ? '7373' : '737',
    amountMinor: 1234n,
    currency: 'BRL',
    idempotencyKey: `key-${keySeq}`,
    ...overrides,
  };
}

function codeOf(result: ProcessorResult): string {
  return result.status === 'declined' || result.status === 'failed' ? `${result.status}:${result.code}` : result.status;
}

describe('TEST_CARDS', () => {
  test('lists only Luhn-valid numbers, each once', () => {
    const pans = TEST_CARDS.map((c) => c.pan);
    assert.equal(new Set(pans).size, pans.length);
    for (const pan of pans) {
      assert.equal(luhnValid(pan), true, pan);
    }
  });

  test('is documented row by row in docs/test-cards.md', () => {
    const doc = readFileSync(new URL('../../../docs/test-cards.md', import.meta.url), 'utf8');
    for (const card of TEST_CARDS) {
      const spaced = card.pan.replace(/(\d{4})(?=\d)/g, '$1 ');
      assert.ok(doc.includes(spaced), `docs/test-cards.md lacks ${spaced}`);
      assert.ok(doc.includes(card.payerSees), `docs/test-cards.md lacks the payer text for ${card.pan}`);
      assert.ok(doc.includes(card.result), `docs/test-cards.md lacks the result for ${card.pan}`);
    }
  });
});

describe('TestCardProcessor.authorize', () => {
  test('answers each table card with its documented outcome', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const expected: Record<string, string> = {
      '4242424242424242': 'approved',
      '4000000000000002': 'declined:card_declined',
      '4000000000009995': 'declined:insufficient_funds',
      '4000000000000119': 'failed:processing_error',
      '4000000000003220': 'pending',
      '4000000000000341': 'declined:card_declined',
    };
    for (const card of TEST_CARDS) {
      const result = await processor.authorize(request(card.pan));
      assert.equal(codeOf(result), expected[card.pan], card.pan);
      assert.equal(result.brand, 'VISA');
      assert.equal(result.last4, card.pan.slice(-4));
      assert.equal(result.amountMinor, 1234n);
      assert.equal(result.currency, 'BRL');
    }
  });

  test('approves other public test cards of every brand', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    for (const pan of [
      '5555555555554444',
      '2223003122003222',
      '378282246310005',
      '6011111111111117',
      '5066991111111118',
    ]) {
      assert.equal(outcomeForPan(pan), 'approved');
      assert.equal((await processor.authorize(request(pan))).status, 'approved', pan);
    }
  });

  test('approves any Luhn-valid number that is not in the table', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const body = fc.stringMatching(/^5[1-5][0-9]{13}$/);
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const digit = [...'0123456789'].find((d) => luhnValid(b + d)) ?? '';
        const result = await processor.authorize(request(b + digit));
        assert.equal(result.status, 'approved');
      }),
      { numRuns: 50 },
    );
  });

  test('declines numbers that fail the Luhn check, expired cards and wrong-length security codes', async () => {
    const now = clock();
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: now.now });
    assert.equal(codeOf(await processor.authorize(request('4242424242424241'))), 'declined:incorrect_number');
    assert.equal(
      codeOf(await processor.authorize(request('4242424242424242', { expMonth: 12, expYear: 2025 }))),
      'declined:expired_card',
    );
    assert.equal(
      codeOf(await processor.authorize(request('4242424242424242', { expMonth: 13 }))),
      'declined:invalid_expiry',
    );
    assert.equal(
      codeOf(await processor.authorize(request('4242424242424242', { cvc: '7373' }))),
      'declined:incorrect_cvc',
    );
    assert.equal(
      codeOf(await processor.authorize(request('378282246310005', { cvc: '737' }))),
      'declined:incorrect_cvc',
    );
  });

  test('rejects with RangeError on programming errors instead of recording a charge', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore() });
    await assert.rejects(processor.authorize(request('4242424242424242', { amountMinor: 0n })), RangeError);
    await assert.rejects(processor.authorize(request('4242424242424242', { currency: 'brl' })), RangeError);
    await assert.rejects(processor.authorize(request('4242424242424242', { idempotencyKey: '' })), RangeError);
    assert.equal((await processor.listCharges()).length, 0);
  });
});

describe('TestCardProcessor delayed approval', () => {
  test('reports pending until the configured delay has passed on the injected clock, then approved', async () => {
    const now = clock();
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: now.now, approvalDelayMs: 5000 });
    const first = await processor.authorize(request('4000000000003220'));
    assert.equal(first.status, 'pending');

    now.advance(4999);
    assert.equal((await processor.retrieve(first.chargeId))?.status, 'pending');

    now.advance(1);
    const later = await processor.retrieve(first.chargeId);
    assert.equal(later?.status, 'approved');
    assert.equal(later?.chargeId, first.chargeId);
    assert.deepEqual(
      (await processor.listCharges()).map((c) => c.status),
      ['approved'],
    );
  });

  test('returns null for an unknown charge id', async () => {
    assert.equal(await new TestCardProcessor({ store: new MemoryProcessorStore() }).retrieve('ch_missing'), null);
  });
});

describe('TestCardProcessor idempotency', () => {
  test('returns the first result for a repeated key and captures only once', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const req = request('4242424242424242');
    const a = await processor.authorize(req);
    const b = await processor.authorize({ ...req });
    assert.deepEqual(b, a);
    assert.equal((await processor.listCharges()).length, 1);
  });

  test('replays declines too, so a retry with the same key never turns into a second attempt', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const req = request('4000000000000119');
    const a = await processor.authorize(req);
    const b = await processor.authorize(req);
    assert.equal(codeOf(b), 'failed:processing_error');
    assert.equal(b.chargeId, a.chargeId);
    assert.equal((await processor.listCharges()).length, 1);
  });

  test('shares one capture among concurrent calls with the same key', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now, latencyMs: 5 });
    const req = request('4242424242424242');
    const results = await Promise.all(Array.from({ length: 8 }, () => processor.authorize(req)));
    assert.equal(new Set(results.map((r) => r.chargeId)).size, 1);
    assert.equal((await processor.listCharges()).length, 1);
  });

  test('refuses a key reused for a different amount or card', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const req = request('4242424242424242');
    await processor.authorize(req);
    await assert.rejects(processor.authorize({ ...req, amountMinor: 999n }), IdempotencyKeyReuseError);
    await assert.rejects(processor.authorize({ ...req, pan: '5555555555554444' }), IdempotencyKeyReuseError);
    assert.equal((await processor.listCharges()).length, 1);
  });

  test('keeps results isolated from callers that mutate them', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const req = request('4242424242424242');
    const a = await processor.authorize(req);
    a.amountMinor = 1n;
    assert.equal((await processor.authorize(req)).amountMinor, 1234n);
  });
});

describe('TestCardProcessor tokens', () => {
  test('tokenizes a card and charges the token with the outcome of the card behind it', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const saved = await processor.tokenize({ pan: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '737' });
    assert.equal(saved.status, 'tokenized');
    if (saved.status !== 'tokenized') {
      return;
    }
    assert.match(saved.token, /^tok_[0-9a-f]{24}$/);
    assert.equal(saved.last4, '4242');
    const charge = await processor.chargeToken({
      token: saved.token,
      amountMinor: 500n,
      currency: 'BRL',
      idempotencyKey: 'k1',
    });
    assert.equal(charge.status, 'approved');
    assert.equal(charge.last4, '4242');
  });

  test('saves the attach-then-decline card but declines every charge on it', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const saved = await processor.tokenize({ pan: '4000000000000341', expMonth: 12, expYear: 2030, cvc: '737' });
    assert.equal(saved.status, 'tokenized');
    if (saved.status !== 'tokenized') {
      return;
    }
    for (const key of ['a', 'b']) {
      const charge = await processor.chargeToken({
        token: saved.token,
        amountMinor: 500n,
        currency: 'BRL',
        idempotencyKey: key,
      });
      assert.equal(codeOf(charge), 'declined:card_declined');
    }
  });

  test('remembers insufficient funds and delayed approval per token', async () => {
    const now = clock();
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: now.now, approvalDelayMs: 1000 });
    const poor = await processor.tokenize({ pan: '4000000000009995', expMonth: 1, expYear: 2027, cvc: '123' });
    const slow = await processor.tokenize({ pan: '4000000000003220', expMonth: 1, expYear: 2027, cvc: '123' });
    assert.ok(poor.status === 'tokenized' && slow.status === 'tokenized');
    const p = await processor.chargeToken({ token: poor.token, amountMinor: 1n, currency: 'BRL', idempotencyKey: 'p' });
    const s = await processor.chargeToken({ token: slow.token, amountMinor: 1n, currency: 'BRL', idempotencyKey: 's' });
    assert.equal(codeOf(p), 'declined:insufficient_funds');
    assert.equal(s.status, 'pending');
    now.advance(1000);
    assert.equal((await processor.retrieve(s.chargeId))?.status, 'approved');
  });

  test('rejects invalid cards at tokenization and unknown tokens at charge time', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    assert.deepEqual(await processor.tokenize({ pan: '4242424242424241', expMonth: 12, expYear: 2030, cvc: '737' }), {
      status: 'rejected',
      code: 'incorrect_number',
    });
    const charge = await processor.chargeToken({
      token: 'tok_nope',
      amountMinor: 1n,
      currency: 'BRL',
      idempotencyKey: 'x',
    });
    assert.equal(codeOf(charge), 'failed:invalid_token');
  });
});

describe('TestCardProcessor data retention', () => {
  test('keeps no card number or security code after its calls return', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const pans = [...TEST_CARDS.map((c) => c.pan), '5555555555554444'];
    for (const pan of pans) {
      await processor.authorize(request(pan, { cvc: '737' }));
      await processor.tokenize({ pan, expMonth: 12, expYear: 2030, cvc: '737' });
    }
    const state = inspect(processor, { depth: null, showHidden: true, maxArrayLength: null, maxStringLength: null });
    assert.ok(state.includes("last4: '4242'"), 'the dump should show stored state');
    for (const pan of pans) {
      assert.ok(!state.includes(pan), `processor state contains ${pan}`);
    }
    assert.ok(!state.includes("'737'"), 'processor state contains a security code');
  });
});

describe('TestCardProcessor latency', () => {
  test('waits the configured latency before answering', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), latencyMs: 40 });
    const started = performance.now();
    await processor.authorize(request('4242424242424242'));
    assert.ok(performance.now() - started >= 35);
  });
});

describe('TestCardProcessor cancel (a caller that lost track of a charge)', () => {
  test('answers the charge made under the key, unchanged, and records nothing more', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const req = request('4242424242424242');
    const charged = await processor.authorize(req);
    const answer = await processor.cancel(req.idempotencyKey);
    assert.equal(answer.status, 'approved');
    assert.equal(answer.chargeId, charged.chargeId);
    assert.equal((await processor.listCharges()).length, 1);
  });

  test('spends an unused key: the answer is canceled and a later charge under it is refused', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now });
    const req = request('4242424242424242');
    const answer = await processor.cancel(req.idempotencyKey);
    assert.equal(codeOf(answer), 'failed:canceled');
    await assert.rejects(processor.authorize(req), IdempotencyKeyReuseError);
    assert.deepEqual(await processor.listCharges(), []);
    // Asked again, the same answer.
    assert.equal((await processor.cancel(req.idempotencyKey)).chargeId, answer.chargeId);
  });

  test('a charge and a cancel racing on one key end with one of them, both callers told the same', async () => {
    const processor = new TestCardProcessor({ store: new MemoryProcessorStore(), now: clock().now, latencyMs: 3 });
    const req = request('4242424242424242');
    const [charged, canceled] = await Promise.allSettled([
      processor.authorize(req),
      processor.cancel(req.idempotencyKey),
    ]);
    const kept = await processor.cancel(req.idempotencyKey);
    if (charged.status === 'fulfilled') {
      assert.equal(charged.value.chargeId, kept.chargeId);
    } else {
      assert.ok(charged.reason instanceof IdempotencyKeyReuseError);
    }
    assert.equal(canceled.status === 'fulfilled' && canceled.value.chargeId, kept.chargeId);
  });
});
