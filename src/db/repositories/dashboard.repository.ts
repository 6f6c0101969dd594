import type { Kysely, Selectable } from 'kysely';
import type {
  AuditEntry,
  DashboardSession,
  DashboardUser,
  Invitation,
  Membership,
  MemberView,
  PasswordReset,
  SessionStage,
} from '../../domain/dashboard/dashboard-user.ts';
import type { Role } from '../../domain/dashboard/roles.ts';
import type { DashboardRepository } from '../../domain/repositories/dashboard.repository.ts';
import type { DashboardInvitationsTable, DashboardSessionsTable, DashboardUsersTable, Database } from '../schema.ts';

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

function toSession(row: Selectable<DashboardSessionsTable>): DashboardSession {
  return {
    idHash: row.id_hash,
    userId: row.user_id,
    stage: row.stage as SessionStage,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

export class KyselyDashboardRepository implements DashboardRepository {
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
    return row
      ? { userId: row.user_id, merchantId: row.merchant_id, role: row.role as Role, createdAt: Number(row.created_at) }
      : undefined;
  }

  async membershipsOf(userId: string): Promise<Membership[]> {
    const rows = await this.db
      .selectFrom('dashboard_memberships')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => ({
      userId: row.user_id,
      merchantId: row.merchant_id,
      role: row.role as Role,
      createdAt: Number(row.created_at),
    }));
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
      userId: row.user_id,
      merchantId: row.merchant_id,
      role: row.role as Role,
      createdAt: Number(row.created_at),
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

  async insertSession(s: DashboardSession): Promise<void> {
    await this.db
      .insertInto('dashboard_sessions')
      .values({
        id_hash: s.idHash,
        user_id: s.userId,
        stage: s.stage,
        created_at: BigInt(s.createdAt),
        last_seen_at: BigInt(s.lastSeenAt),
        expires_at: BigInt(s.expiresAt),
        ip: s.ip,
        user_agent: s.userAgent,
      })
      .execute();
  }

  async session(idHash: string): Promise<DashboardSession | undefined> {
    const row = await this.db
      .selectFrom('dashboard_sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return row ? toSession(row) : undefined;
  }

  async touchSession(idHash: string, at: number): Promise<void> {
    await this.db
      .updateTable('dashboard_sessions')
      .set({ last_seen_at: BigInt(at) })
      .where('id_hash', '=', idHash)
      .execute();
  }

  async setSessionStage(idHash: string, stage: SessionStage, at: number): Promise<void> {
    await this.db
      .updateTable('dashboard_sessions')
      .set({ stage, last_seen_at: BigInt(at) })
      .where('id_hash', '=', idHash)
      .execute();
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteSessionsOf(userId: string, keep: string | null): Promise<number> {
    let query = this.db.deleteFrom('dashboard_sessions').where('user_id', '=', userId);
    if (keep !== null) {
      query = query.where('id_hash', '<>', keep);
    }
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async sessionsOf(userId: string, now: number): Promise<DashboardSession[]> {
    const rows = await this.db
      .selectFrom('dashboard_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', BigInt(now))
      .orderBy('last_seen_at', 'desc')
      .execute();
    return rows.map(toSession);
  }

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

  async failures(key: string, now: number, windowMs: number): Promise<number> {
    const row = await this.db
      .selectFrom('dashboard_throttle')
      .select(['window_start', 'failures'])
      .where('key', '=', key)
      .executeTakeFirst();
    return row && Number(row.window_start) + windowMs > now ? Number(row.failures) : 0;
  }

  async recordFailure(key: string, now: number, windowMs: number): Promise<void> {
    const current = await this.failures(key, now, windowMs);
    if (current === 0) {
      await this.db
        .insertInto('dashboard_throttle')
        .values({ key, window_start: BigInt(now), failures: 1n })
        .onConflict((oc) => oc.column('key').doUpdateSet({ window_start: BigInt(now), failures: 1n }))
        .execute();
    } else {
      await this.db
        .updateTable('dashboard_throttle')
        .set((eb) => ({ failures: eb('failures', '+', 1n) }))
        .where('key', '=', key)
        .execute();
    }
  }

  async clearFailures(key: string): Promise<void> {
    await this.db.deleteFrom('dashboard_throttle').where('key', '=', key).execute();
  }

  async insertAudit(e: AuditEntry): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        id: e.id,
        merchant_id: e.merchantId,
        user_id: e.userId,
        actor: e.actor,
        action: e.action,
        object_type: e.objectType,
        object_id: e.objectId,
        ip: e.ip,
        detail: JSON.stringify(e.detail),
        at: BigInt(e.at),
      })
      .execute();
  }

  async audit(merchantId: string, limit: number, before: { at: number; id: string } | null): Promise<AuditEntry[]> {
    let query = this.db.selectFrom('audit_log').selectAll().where('merchant_id', '=', merchantId);
    if (before) {
      const at = BigInt(before.at);
      query = query.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', before.id)])]));
    }
    const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      merchantId: row.merchant_id,
      userId: row.user_id,
      actor: row.actor,
      action: row.action,
      objectType: row.object_type,
      objectId: row.object_id,
      ip: row.ip,
      detail: JSON.parse(row.detail) as AuditEntry['detail'],
      at: Number(row.at),
    }));
  }
}
