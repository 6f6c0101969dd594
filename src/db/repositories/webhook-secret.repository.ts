import type { Kysely } from 'kysely';
import type { WebhookSecretRepository } from '../../domain/repositories/webhook-secret.repository.ts';
import type { SealedSecrets } from '../../domain/webhooks/webhook.ts';
import type { Database } from '../schema.ts';

/** The columns a write of `s` sets, besides the owner. */
function secretColumns(s: SealedSecrets, at: number) {
  return {
    secret: s.secret,
    previous_secret: s.previousSecret,
    previous_expires_at: s.previousExpiresAt === null ? null : BigInt(s.previousExpiresAt),
    updated_at: BigInt(at),
  };
}

export class KyselyWebhookSecretRepository implements WebhookSecretRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(owner: string): Promise<SealedSecrets | undefined> {
    const row = await this.db.selectFrom('webhook_secrets').selectAll().where('owner', '=', owner).executeTakeFirst();
    return row
      ? {
          secret: row.secret,
          previousSecret: row.previous_secret,
          previousExpiresAt: row.previous_expires_at === null ? null : Number(row.previous_expires_at),
        }
      : undefined;
  }

  async put(owner: string, s: SealedSecrets, at: number): Promise<void> {
    const values = secretColumns(s, at);
    await this.db
      .insertInto('webhook_secrets')
      .values({ owner, ...values })
      .onConflict((oc) => oc.column('owner').doUpdateSet(values))
      .execute();
  }

  async insertIfAbsent(owner: string, s: SealedSecrets, at: number): Promise<void> {
    await this.db
      .insertInto('webhook_secrets')
      .values({ owner, ...secretColumns(s, at) })
      .onConflict((oc) => oc.column('owner').doNothing())
      .execute();
  }
}
