import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { CredentialFreshness } from './credential-freshness.ts';
import { hashSecret, modeOfKey, newKeyPair, secretMatches } from './credentials.ts';
import type { ApiKey, Caller, Merchant, Mode } from './merchant.ts';
import type { SettingsPatch, StoredSettings } from './merchant-settings.ts';
import { applySettingsPatch, readStoredSettings } from './merchant-settings.ts';

export type IssuedKeyPair = { merchantId: string; apiKey: string; apiSecret: string; mode: Mode };

const UNAUTHORIZED_MESSAGE = 'invalid or missing credentials: send x-api-key and x-api-secret';

/** One message for every credential failure: no hint which half was wrong. */
export const unauthorized = (): AppError => new AppError('UNAUTHORIZED', [UNAUTHORIZED_MESSAGE]);

/**
 * How long this process trusts a stored key record it has read (monotonic clock). Every API
 * request authenticates, and reading the key on each one was a large share of a request's
 * cost. Revocations do not wait for this: one made through this service clears the record at
 * once, and one made elsewhere (the `cobro keys revoke` command, another instance on the same
 * PostgreSQL) is noticed through the `CredentialFreshness` port before the cache is trusted.
 * The limit remains as a backstop should that port ever miss a change without knowing it.
 */
export const KEY_CACHE_TTL_MS = 5_000;
/** "Last used" is written at most this often per key and process: the auth path stays read-only. */
export const LAST_USED_INTERVAL_MS = 60 * 60 * 1000;
/** Bounds memory: only keys that exist are ever cached, but a process may serve many merchants. */
const KEY_CACHE_MAX = 10_000;

type CachedKey = { record: ApiKey; until: number };

export class MerchantService {
  private readonly keys = new Map<string, CachedKey>();
  /**
   * Bumped by every revocation this process makes or hears of, and whenever the cache is
   * dropped, so a read that started before it never caches what it saw.
   */
  private revocations = 0;
  /** The freshness version the cached records were read under (see `CredentialFreshness.version`). */
  private cachedVersion: number | null = null;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly freshness: CredentialFreshness,
  ) {
    freshness.onRevoked((apiKey) => {
      if (apiKey === null) {
        this.keys.clear();
      } else {
        this.keys.delete(apiKey);
      }
      this.revocations++;
    });
  }

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

  async createKeyPair(merchantId: string, mode: Mode, name: string | null = null): Promise<IssuedKeyPair> {
    const trimmedName = name?.trim() ?? '';
    if ([...trimmedName].length > 100) {
      throw new AppError('WRONG_INPUT', ['name must be at most 100 characters']);
    }
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
        name: trimmedName === '' ? null : trimmedName,
      });
    });
    return { merchantId, mode, ...pair };
  }

  /** The merchant's keys of one mode, newest first, revoked ones included; secrets are never kept. */
  listKeys(merchantId: string, mode: Mode): Promise<ApiKey[]> {
    return this.uow.read.apiKeys.list(merchantId, mode);
  }

  /** Revokes one of the merchant's keys of this mode; another merchant's or mode's key is NOT_FOUND. */
  async revokeMerchantKey(merchantId: string, mode: Mode, apiKey: string): Promise<ApiKey> {
    const stored = apiKey.length <= 100 ? await this.uow.read.apiKeys.get(apiKey) : undefined;
    if (!stored || stored.merchantId !== merchantId || stored.mode !== mode) {
      throw new AppError('NOT_FOUND', ['api key not found']);
    }
    await this.revokeKey(stored.key);
    return stored;
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
    // Other processes: answer only once they too refuse the key.
    await this.freshness.confirmRevoked(apiKey);
  }

  /**
   * Applies `patch` to the merchant's stored settings (PIX key, extended public keys, bank
   * account, business profile): see SettingsPatch for what replaces, merges and removes.
   */
  async updateSettings(merchantId: string, patch: SettingsPatch): Promise<StoredSettings> {
    return this.uow.transaction((repos) => applySettingsPatch(repos, merchantId, patch));
  }

  async getSettings(merchantId: string): Promise<StoredSettings> {
    return readStoredSettings(await this.uow.read.merchants.getSettings(merchantId));
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
    this.noteUse(stored.key);
    return { merchantId: stored.merchantId, mode: stored.mode, key: stored.key };
  }

  /**
   * Records the key's last use, at most once per LAST_USED_INTERVAL_MS per key in this process,
   * without waiting and without ever failing the request: the write is fire-and-forget, and a
   * lost one only makes "last used" up to an interval older than it could be.
   */
  private noteUse(apiKey: string): void {
    const now = this.clock.now().getTime();
    const written = this.lastUseWritten.get(apiKey);
    if (written !== undefined && now - written < LAST_USED_INTERVAL_MS && now >= written) {
      return;
    }
    if (this.lastUseWritten.size >= KEY_CACHE_MAX) {
      this.lastUseWritten.clear();
    }
    this.lastUseWritten.set(apiKey, now);
    try {
      this.uow.oneStatement((repos) => repos.apiKeys.touch(apiKey, now)).catch(() => {});
    } catch {
      // Never fails the request it was noticed on.
    }
  }

  /** When this process last wrote each key's last use (see noteUse). */
  private readonly lastUseWritten = new Map<string, number>();

  /** The stored key record, from this process's short-lived cache or the database. Unknown keys are never cached. */
  private async storedKey(apiKey: string): Promise<ApiKey | undefined> {
    // 1. Before trusting the cache: has anything changed elsewhere since it was filled?
    const version = this.freshness.version();
    if (version !== this.cachedVersion) {
      this.keys.clear();
      this.cachedVersion = version;
      // A read in flight began under the old version: it must not be cached under the new one.
      this.revocations++;
    }
    const now = performance.now();
    const cached = this.keys.get(apiKey);
    if (cached && cached.until > now) {
      return cached.record;
    }
    // 2. Read the committed record; the version was taken first, so anything committed after
    // it changes the version (or is announced through onRevoked) before the next request.
    const revocationsBefore = this.revocations;
    const stored = await this.uow.read.apiKeys.get(apiKey);
    // 3. Cache it only if nothing changed meanwhile and changes elsewhere can be noticed at all.
    if (stored && stored.revokedAt === null && this.revocations === revocationsBefore && version !== null) {
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
