import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CredentialFreshness } from '../../../src/domain/merchants/credential-freshness.ts';
import { hashSecret } from '../../../src/domain/merchants/credentials.ts';
import { MerchantService } from '../../../src/domain/merchants/merchant.service.ts';
import type { ApiKey } from '../../../src/domain/merchants/merchant.ts';
import type { Repositories } from '../../../src/domain/repositories/repositories.ts';
import { ManualClock } from '../../../src/domain/shared/clock.ts';
import { AppError } from '../../../src/domain/shared/errors.ts';
import type { UnitOfWork } from '../../../src/domain/shared/unit-of-work.ts';

// MerchantService's key cache and the CredentialFreshness port: the cache saves a read per
// request, and must never answer for a key that was revoked elsewhere before the request came.

const KEY = 'ck_test_cachedcachedcachedcached';
const SECRET = 'cs_test_secretsecretsecretsecret';

class FakeFreshness implements CredentialFreshness {
  current: number | null = 1;
  /** What confirmRevoked waits for; resolved at once unless a test replaces it. */
  confirmation: Promise<void> = Promise.resolve();
  confirmed: string[] = [];
  private listeners: ((apiKey: string | null) => void)[] = [];
  version(): number | null {
    return this.current;
  }
  onRevoked(listener: (apiKey: string | null) => void): void {
    this.listeners.push(listener);
  }
  async confirmRevoked(apiKey: string): Promise<void> {
    await this.confirmation;
    this.confirmed.push(apiKey);
  }
  announce(apiKey: string | null): void {
    for (const listener of this.listeners) {
      listener(apiKey);
    }
  }
}

/** The stored keys as another process sees them, with a count of the reads this process made. */
function storedKeys() {
  const rows = new Map<string, ApiKey>([
    [KEY, { key: KEY, merchantId: 'm1', mode: 'test', secretHash: hashSecret(SECRET), createdAt: 0, revokedAt: null }],
  ]);
  let reads = 0;
  /** When set, a read waits for it before answering (a read in flight). */
  let gate: Promise<void> | null = null;
  const apiKeys = {
    async get(key: string) {
      reads++;
      const snapshot = rows.get(key);
      const copy = snapshot ? { ...snapshot } : undefined;
      if (gate) {
        await gate;
      }
      return copy;
    },
    async insert() {},
    async revoke(key: string, at: number) {
      const row = rows.get(key);
      if (row) {
        row.revokedAt = at;
      }
      return row !== undefined;
    },
  };
  const repos = { apiKeys } as unknown as Repositories;
  const uow: UnitOfWork = { read: repos, transaction: (fn) => fn(repos), oneStatement: (fn) => fn(repos) };
  return {
    uow,
    reads: () => reads,
    revokeElsewhere: () => {
      const row = rows.get(KEY);
      if (row) {
        row.revokedAt = 1;
      }
    },
    holdReads: () => {
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        gate = null;
        release();
      };
    },
  };
}

const isUnauthorized = (error: unknown) => error instanceof AppError && error.code === 'UNAUTHORIZED';

test('serves a key from the cache while the freshness version stays the same', async () => {
  const store = storedKeys();
  const merchants = new MerchantService(store.uow, new ManualClock(), new FakeFreshness());
  for (let i = 0; i < 3; i++) {
    assert.equal((await merchants.authenticate(KEY, SECRET)).merchantId, 'm1');
  }
  assert.equal(store.reads(), 1);
});

test('refuses a key revoked elsewhere on the first request after the freshness version changes', async () => {
  const store = storedKeys();
  const freshness = new FakeFreshness();
  const merchants = new MerchantService(store.uow, new ManualClock(), freshness);
  await merchants.authenticate(KEY, SECRET);
  store.revokeElsewhere();
  freshness.current = 2;
  await assert.rejects(merchants.authenticate(KEY, SECRET), isUnauthorized);
});

test('refuses a key as soon as another process announces its revocation', async () => {
  const store = storedKeys();
  const freshness = new FakeFreshness();
  const merchants = new MerchantService(store.uow, new ManualClock(), freshness);
  await merchants.authenticate(KEY, SECRET);
  store.revokeElsewhere();
  freshness.announce(KEY);
  await assert.rejects(merchants.authenticate(KEY, SECRET), isUnauthorized);
});

test('caches nothing while changes made elsewhere cannot be noticed, and caches again once they can', async () => {
  const store = storedKeys();
  const freshness = new FakeFreshness();
  freshness.current = null;
  const merchants = new MerchantService(store.uow, new ManualClock(), freshness);
  await merchants.authenticate(KEY, SECRET);
  await merchants.authenticate(KEY, SECRET);
  assert.equal(store.reads(), 2);
  freshness.current = 7;
  await merchants.authenticate(KEY, SECRET);
  await merchants.authenticate(KEY, SECRET);
  assert.equal(store.reads(), 3);
});

test('does not cache a read that was in flight when the freshness version changed', async () => {
  const store = storedKeys();
  const freshness = new FakeFreshness();
  const merchants = new MerchantService(store.uow, new ManualClock(), freshness);
  // 1. A request reads the key (not yet revoked) and is held before the answer is cached.
  const release = store.holdReads();
  const inFlight = merchants.authenticate(KEY, SECRET);
  // 2. Meanwhile the key is revoked elsewhere and another request notices the new version.
  store.revokeElsewhere();
  freshness.current = 2;
  const noticing = merchants.authenticate(KEY, SECRET);
  release();
  await inFlight;
  await assert.rejects(noticing, isUnauthorized);
  // 3. The old read must not have been cached under the new version.
  await assert.rejects(merchants.authenticate(KEY, SECRET), isUnauthorized);
});

test('answers a revocation only once the other processes have confirmed they dropped the key', async () => {
  const store = storedKeys();
  const freshness = new FakeFreshness();
  let confirm = () => {};
  freshness.confirmation = new Promise<void>((resolve) => {
    confirm = resolve;
  });
  const merchants = new MerchantService(store.uow, new ManualClock(), freshness);
  let answered = false;
  const revoking = merchants.revokeKey(KEY).then(() => {
    answered = true;
  });
  await new Promise((r) => setImmediate(r));
  // Committed, and refused here already, but not yet answered.
  await assert.rejects(merchants.authenticate(KEY, SECRET), isUnauthorized);
  assert.equal(answered, false);
  confirm();
  await revoking;
  assert.deepEqual(freshness.confirmed, [KEY]);
});
