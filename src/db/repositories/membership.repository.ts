import type { Kysely } from 'kysely';
import type { Membership, MemberView } from '../../domain/dashboard/dashboard-user.ts';
import type { Role } from '../../domain/dashboard/roles.ts';
import type { MembershipRepository } from '../../domain/repositories/membership.repository.ts';
import type { Database } from '../schema.ts';

type MembershipRow = { user_id: string; merchant_id: string; role: string; created_at: bigint | number | string };

function toMembership(row: MembershipRow): Membership {
  return {
    userId: row.user_id,
    merchantId: row.merchant_id,
    role: row.role as Role,
    createdAt: Number(row.created_at),
  };
}

export class KyselyMembershipRepository implements MembershipRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async upsertMembership(m: Membership): Promise<void> {
    await this.db
      .insertInto('dashboard_memberships')
      .values({ user_id: m.userId, merchant_id: m.merchantId, role: m.role, created_at: BigInt(m.createdAt) })
      .onConflict((oc) => oc.columns(['user_id', 'merchant_id']).doUpdateSet({ role: m.role }))
      .execute();
  }

  async membership(userId: string, merchantId: string): Promise<Membership | undefined> {
    const row = await this.db
      .selectFrom('dashboard_memberships')
      .selectAll()
      .where('user_id', '=', userId)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
    return row ? toMembership(row) : undefined;
  }

  async membershipsOf(userId: string): Promise<Membership[]> {
    const rows = await this.db
      .selectFrom('dashboard_memberships')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return rows.map(toMembership);
  }

  async members(merchantId: string): Promise<MemberView[]> {
    const rows = await this.db
      .selectFrom('dashboard_memberships as m')
      .innerJoin('dashboard_users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.merchant_id', 'm.role', 'm.created_at', 'u.email', 'u.totp_enabled_at'])
      .where('m.merchant_id', '=', merchantId)
      .orderBy('m.created_at')
      .execute();
    return rows.map((row) => ({
      ...toMembership(row),
      email: row.email,
      totpEnabled: row.totp_enabled_at !== null,
    }));
  }

  async removeMembership(userId: string, merchantId: string): Promise<void> {
    await this.db
      .deleteFrom('dashboard_memberships')
      .where('user_id', '=', userId)
      .where('merchant_id', '=', merchantId)
      .execute();
  }

  async countOwners(merchantId: string): Promise<number> {
    const row = await this.db
      .selectFrom('dashboard_memberships')
      .select((eb) => eb.fn.countAll<bigint | string>().as('n'))
      .where('merchant_id', '=', merchantId)
      .where('role', '=', 'owner')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
