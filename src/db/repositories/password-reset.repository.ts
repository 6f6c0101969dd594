import type { Kysely } from 'kysely';
import type { PasswordReset } from '../../domain/dashboard/dashboard-user.ts';
import type { PasswordResetRepository } from '../../domain/repositories/password-reset.repository.ts';
import type { Database } from '../schema.ts';

const num = (v: bigint | number | string | null): number | null => (v === null ? null : Number(v));

export class KyselyPasswordResetRepository implements PasswordResetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertPasswordReset(r: PasswordReset): Promise<void> {
    await this.db
      .insertInto('dashboard_password_resets')
      .values({
        token_hash: r.tokenHash,
        user_id: r.userId,
        created_at: BigInt(r.createdAt),
        expires_at: BigInt(r.expiresAt),
        used_at: null,
      })
      .execute();
  }

  async passwordReset(tokenHash: string): Promise<PasswordReset | undefined> {
    const row = await this.db
      .selectFrom('dashboard_password_resets')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row
      ? {
          tokenHash: row.token_hash,
          userId: row.user_id,
          createdAt: Number(row.created_at),
          expiresAt: Number(row.expires_at),
          usedAt: num(row.used_at),
        }
      : undefined;
  }

  async usePasswordReset(tokenHash: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('dashboard_password_resets')
      .set({ used_at: BigInt(at) })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
