import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { hashSecret, modeOfKey, newKeyPair, secretMatches } from './credentials.ts';
import type { ApiKey, Caller, Merchant, Mode } from './merchant.ts';
import type { StoredSettings } from './merchant-settings.ts';

export type IssuedKeyPair = { merchantId: string; apiKey: string; apiSecret: string; mode: Mode };

const UNAUTHORIZED_MESSAGE = 'invalid or missing credentials: send x-api-key and x-api-secret';

/** One message for every credential failure: no hint which half was wrong. */
export const unauthorized = (): AppError => new AppError('UNAUTHORIZED', [UNAUTHORIZED_MESSAGE]);

/**
 * How long this process trusts a stored key record it has read (monotonic clock). Every API
 * request authenticates, and reading the key on each one was a large share of a request's
 * cost. A revocation through this service clears the record at once; a revocation made by
 * another process (the `cobro keys revoke` command, another instance on the same PostgreSQL)
 * takes effect here within this many milliseconds.
 */
export const KEY_CACHE_TTL_MS = 5_000;
/** Bounds memory: only keys that exist are ever cached, but a process may serve many merchants. */
const KEY_CACHE_MAX = 10_000;

type CachedKey = { record: ApiKey; until: number };

export class MerchantService {
  private readonly keys = new Map<string, CachedKey>();
  /** Bumped by every revocation, so a read that started before it never caches what it saw. */
  private revocations = 0;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async createMerchant(name: string, mode: Mode = 'test'): Promise<IssuedKeyPair> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 200) {
      throw new AppError('WRONG_INPUT', ['name must be 1 to 200 characters']);
    }
    const merchant: Merchant = { id: newId(), name: trimmed, createdAt: this.clock.now().getTime() };
    const pair = newKeyPair(mode);
    await this.uow.transaction(async (repos) => {
      await repos.merchants.insert(merchant);
      await repos.apiKeys.insert({
        key: pair.apiKey,
        merchantId: merchant.id,
        mode,
        secretHash: hashSecret(pair.apiSecret),
        createdAt: merchant.createdAt,
        revokedAt: null,
      });
    });
    return { merchantId: merchant.id, mode, ...pair };
  }

  async createKeyPair(merchantId: string, mode: Mode): Promise<IssuedKeyPair> {
    const pair = newKeyPair(mode);
    await this.uow.transaction(async (repos) => {
      if (!(await repos.merchants.get(merchantId))) {
        throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
      }
      await repos.apiKeys.insert({
        key: pair.apiKey,
        merchantId,
        mode,
        secretHash: hashSecret(pair.apiSecret),
        createdAt: this.clock.now().getTime(),
        revokedAt: null,
      });
    });
    return { merchantId, mode, ...pair };
  }

  /**
   * Creates a merchant holding exactly the given pair, unless that key already exists
   * (BOOTSTRAP_API_KEY / BOOTSTRAP_API_SECRET for scripts and CI). Returns whether it created one.
   */
  async bootstrap(apiKey: string, apiSecret: string, name = 'Bootstrap merchant'): Promise<boolean> {
    const mode = modeOfKey(apiKey);
    if (mode !== 'test') {
      throw new AppError('WRONG_INPUT', ['BOOTSTRAP_API_KEY must start with ck_test_']);
    }
    return this.uow.transaction(async (repos) => {
      if (await repos.apiKeys.get(apiKey)) {
        return false;
      }
      const now = this.clock.now().getTime();
      const merchant: Merchant = { id: newId(), name, createdAt: now };
      await repos.merchants.insert(merchant);
      await repos.apiKeys.insert({
        key: apiKey,
        merchantId: merchant.id,
        mode,
        secretHash: hashSecret(apiSecret),
        createdAt: now,
        revokedAt: null,
      });
      return true;
    });
  }

  async revokeKey(apiKey: string): Promise<void> {
    const revoked = await this.uow.transaction((repos) => repos.apiKeys.revoke(apiKey, this.clock.now().getTime()));
    // After the commit: from here on every read sees the revocation, and no older read may be cached.
    this.keys.delete(apiKey);
    this.revocations++;
    if (!revoked) {
      throw new AppError('NOT_FOUND', ['api key not found']);
    }
  }

  /** Merges `patch` into the merchant's stored payment settings (PIX key, extended public keys, bank account). */
  async updateSettings(merchantId: string, patch: StoredSettings): Promise<StoredSettings> {
    return this.uow.transaction(async (repos) => {
      if (!(await repos.merchants.get(merchantId))) {
        throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
      }
      const current = JSON.parse((await repos.merchants.getSettings(merchantId)) ?? '{}') as StoredSettings;
      const next: StoredSettings = {
        ...current,
        ...(patch.pix ? { pix: patch.pix } : {}),
        ...(patch.crypto ? { crypto: { ...current.crypto, ...patch.crypto } } : {}),
        ...(patch.bank ? { bank: patch.bank } : {}),
      };
      await repos.merchants.setSettings(merchantId, JSON.stringify(next));
      return next;
    });
  }

  async getSettings(merchantId: string): Promise<StoredSettings> {
    return JSON.parse((await this.uow.read.merchants.getSettings(merchantId)) ?? '{}') as StoredSettings;
  }

  async hasMerchants(): Promise<boolean> {
    return (await this.uow.read.merchants.count()) > 0;
  }

  /** Resolves a key pair to its caller, or throws the one `UNAUTHORIZED` error. */
  async authenticate(apiKey: string, apiSecret: string): Promise<Caller> {
    if (apiKey.length === 0 || apiKey.length > 100 || apiSecret.length === 0 || apiSecret.length > 200) {
      throw unauthorized();
    }
    const stored = await this.storedKey(apiKey);
    // Digest the presented secret even for unknown keys so both paths do the same work.
    const matches = secretMatches(apiSecret, stored?.secretHash ?? EMPTY_DIGEST);
    if (!stored || stored.revokedAt !== null || !matches) {
      throw unauthorized();
    }
    return { merchantId: stored.merchantId, mode: stored.mode, key: stored.key };
  }

  /** The stored key record, from this process's short-lived cache or the database. Unknown keys are never cached. */
  private async storedKey(apiKey: string): Promise<ApiKey | undefined> {
    const now = performance.now();
    const cached = this.keys.get(apiKey);
    if (cached && cached.until > now) {
      return cached.record;
    }
    const revocationsBefore = this.revocations;
    const stored = await this.uow.read.apiKeys.get(apiKey);
    if (stored && stored.revokedAt === null && this.revocations === revocationsBefore) {
      if (this.keys.size >= KEY_CACHE_MAX) {
        this.keys.clear();
      }
      this.keys.set(apiKey, { record: stored, until: now + KEY_CACHE_TTL_MS });
    } else if (!stored || stored.revokedAt !== null) {
      this.keys.delete(apiKey);
    }
    return stored;
  }
}

const EMPTY_DIGEST = hashSecret('');
