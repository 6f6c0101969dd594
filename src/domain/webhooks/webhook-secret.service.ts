import type { Caller } from '../merchants/merchant.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { newWebhookSecret } from './signing.ts';
import { merchantSecretOwner } from './webhook.service.ts';

/**
 * The secrets that sign deliveries, sealed at rest: one per endpoint, and one per merchant and
 * mode for checkouts' own webhook URLs. A rotation keeps the previous secret signing beside the
 * new one for an overlap, so receivers can switch without losing a delivery. One instance per
 * process: it caches what it opened, and its own rotations clear that cache.
 */
export class WebhookSecretService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly rotationOverlapMs: number,
  ) {}

  /** The secrets that sign for `owner` now: the current one, and the previous one during an overlap. */
  async signingSecrets(owner: string): Promise<string[]> {
    // Every delivery signs: a few seconds of cache saves a read and a decryption each time. A
    // rotation in this process clears it; one in another process is covered by the overlap
    // (the previous secret keeps signing alongside the new one).
    const cached = this.secretCache.get(owner);
    const nowMs = this.clock.now().getTime();
    if (cached && cached.until > nowMs) {
      return cached.secrets;
    }
    const fresh = await this.loadSigningSecrets(owner);
    this.secretCache.set(owner, { secrets: fresh, until: nowMs + 5_000 });
    if (this.secretCache.size > 10_000) {
      this.secretCache.clear();
    }
    return fresh;
  }

  private readonly secretCache = new Map<string, { secrets: string[]; until: number }>();

  private async loadSigningSecrets(owner: string): Promise<string[]> {
    let sealed = await this.uow.read.webhookSecrets.get(owner);
    if (!sealed && owner.startsWith('merchant:')) {
      // The merchant never read its signing secret yet: make it now, so nothing goes unsigned.
      await this.uow.transaction((repos) => this.ensureSecret(repos, owner));
      sealed = await this.uow.read.webhookSecrets.get(owner);
    }
    if (!sealed) {
      return [];
    }
    const now = this.clock.now().getTime();
    const secrets = [this.box.open(sealed.secret)];
    if (sealed.previousSecret && sealed.previousExpiresAt !== null && sealed.previousExpiresAt > now) {
      secrets.push(this.box.open(sealed.previousSecret));
    }
    return secrets;
  }

  private async ensureSecret(repos: Repositories, owner: string): Promise<string> {
    const existing = await repos.webhookSecrets.get(owner);
    if (existing) {
      return this.box.open(existing.secret);
    }
    await repos.webhookSecrets.insertIfAbsent(
      owner,
      { secret: this.box.seal(newWebhookSecret()), previousSecret: null, previousExpiresAt: null },
      this.clock.now().getTime(),
    );
    // Whoever inserted first wins; everyone signs with that one.
    const stored = await repos.webhookSecrets.get(owner);
    if (!stored) {
      throw new Error(`signing secret for ${owner} could not be stored`);
    }
    return this.box.open(stored.secret);
  }

  /** A new secret for `owner`; the current one keeps signing until the overlap ends. */
  async rotate(repos: Repositories, owner: string): Promise<{ secret: string; previousExpiresAt: number }> {
    this.secretCache.delete(owner);
    const now = this.clock.now().getTime();
    const current = await repos.webhookSecrets.get(owner);
    const secret = newWebhookSecret();
    const previousExpiresAt = now + this.rotationOverlapMs;
    await repos.webhookSecrets.put(
      owner,
      {
        secret: this.box.seal(secret),
        previousSecret: current?.secret ?? null,
        previousExpiresAt: current ? previousExpiresAt : null,
      },
      now,
    );
    return { secret, previousExpiresAt };
  }

  /** GET /v1/webhook_settings: the secret that signs deliveries to status_changes_webhook URLs. */
  async merchantSigningSecret(caller: Caller): Promise<string> {
    const owner = merchantSecretOwner(caller.merchantId, caller.mode);
    return this.uow.transaction((repos) => this.ensureSecret(repos, owner));
  }

  async rotateMerchantSecret(caller: Caller): Promise<{ secret: string; previousExpiresAt: number }> {
    const owner = merchantSecretOwner(caller.merchantId, caller.mode);
    return this.uow.transaction(async (repos) => {
      await this.ensureSecret(repos, owner);
      return this.rotate(repos, owner);
    });
  }

  /** A new endpoint's first secret, made and stored inside the transaction that creates the endpoint. */
  async createFirst(repos: Repositories, owner: string, now: number): Promise<string> {
    const secret = newWebhookSecret();
    await repos.webhookSecrets.put(
      owner,
      { secret: this.box.seal(secret), previousSecret: null, previousExpiresAt: null },
      now,
    );
    return secret;
  }
}
