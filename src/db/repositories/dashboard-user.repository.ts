import type { Kysely, Selectable } from 'kysely';
import type { DashboardUser } from '../../domain/dashboard/dashboard-user.ts';
import type { DashboardUserRepository } from '../../domain/repositories/dashboard-user.repository.ts';
import type { DashboardUsersTable, Database } from '../schema.ts';

const num = (v: bigint | number | string | null): number | null => (v === null ? null : Number(v));

function toUser(row: Selectable<DashboardUsersTable>): DashboardUser {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret,
    totpEnabledAt: num(row.totp_enabled_at),
    totpLastStep: num(row.totp_last_step),
    recoveryCodes: JSON.parse(row.recovery_codes) as string[],
    locale: row.locale,
    createdAt: Number(row.created_at),
  };
}

export class KyselyDashboardUserRepository implements DashboardUserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertUser(user: DashboardUser): Promise<void> {
    await this.db
      .insertInto('dashboard_users')
      .values({
        id: user.id,
        email: user.email,
        password_hash: user.passwordHash,
        totp_secret: user.totpSecret,
        totp_enabled_at: user.totpEnabledAt === null ? null : BigInt(user.totpEnabledAt),
        totp_last_step: user.totpLastStep === null ? null : BigInt(user.totpLastStep),
        recovery_codes: JSON.stringify(user.recoveryCodes),
        locale: user.locale,
        created_at: BigInt(user.createdAt),
      })
      .execute();
  }

  async userById(id: string): Promise<DashboardUser | undefined> {
    const row = await this.db.selectFrom('dashboard_users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  async userByEmail(email: string): Promise<DashboardUser | undefined> {
    const row = await this.db.selectFrom('dashboard_users').selectAll().where('email', '=', email).executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  async updateUser(
    id: string,
    patch: Partial<
      Pick<DashboardUser, 'passwordHash' | 'totpSecret' | 'totpEnabledAt' | 'totpLastStep' | 'recoveryCodes' | 'locale'>
    >,
  ): Promise<void> {
    const set: Partial<DashboardUsersTable> = {};
    if (patch.passwordHash !== undefined) {
      set.password_hash = patch.passwordHash;
    }
    if (patch.totpSecret !== undefined) {
      set.totp_secret = patch.totpSecret;
    }
    if (patch.totpEnabledAt !== undefined) {
      set.totp_enabled_at = patch.totpEnabledAt === null ? null : BigInt(patch.totpEnabledAt);
    }
    if (patch.totpLastStep !== undefined) {
      set.totp_last_step = patch.totpLastStep === null ? null : BigInt(patch.totpLastStep);
    }
    if (patch.recoveryCodes !== undefined) {
      set.recovery_codes = JSON.stringify(patch.recoveryCodes);
    }
    if (patch.locale !== undefined) {
      set.locale = patch.locale;
    }
    if (Object.keys(set).length > 0) {
      await this.db.updateTable('dashboard_users').set(set).where('id', '=', id).execute();
    }
  }

  async useTotpStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('dashboard_users')
      .set({ totp_last_step: BigInt(step) })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', BigInt(step))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
