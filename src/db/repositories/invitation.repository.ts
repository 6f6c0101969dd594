import type { Kysely, Selectable } from 'kysely';
import type { Invitation } from '../../domain/dashboard/dashboard-user.ts';
import type { Role } from '../../domain/dashboard/roles.ts';
import type { InvitationRepository } from '../../domain/repositories/invitation.repository.ts';
import type { DashboardInvitationsTable, Database } from '../schema.ts';

const num = (v: bigint | number | string | null): number | null => (v === null ? null : Number(v));

function toInvitation(row: Selectable<DashboardInvitationsTable>): Invitation {
  return {
    tokenHash: row.token_hash,
    merchantId: row.merchant_id,
    email: row.email,
    role: row.role as Role,
    invitedBy: row.invited_by,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: num(row.used_at),
  };
}

export class KyselyInvitationRepository implements InvitationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertInvitation(inv: Invitation): Promise<void> {
    await this.db
      .insertInto('dashboard_invitations')
      .values({
        token_hash: inv.tokenHash,
        merchant_id: inv.merchantId,
        email: inv.email,
        role: inv.role,
        invited_by: inv.invitedBy,
        created_at: BigInt(inv.createdAt),
        expires_at: BigInt(inv.expiresAt),
        used_at: null,
      })
      .execute();
  }

  async invitation(tokenHash: string): Promise<Invitation | undefined> {
    const row = await this.db
      .selectFrom('dashboard_invitations')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ? toInvitation(row) : undefined;
  }

  async useInvitation(tokenHash: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('dashboard_invitations')
      .set({ used_at: BigInt(at) })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async pendingInvitations(merchantId: string, now: number): Promise<Invitation[]> {
    const rows = await this.db
      .selectFrom('dashboard_invitations')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', BigInt(now))
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map(toInvitation);
  }
}
