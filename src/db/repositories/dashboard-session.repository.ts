import type { Kysely, Selectable } from 'kysely';
import type { DashboardSession, SessionStage } from '../../domain/dashboard/dashboard-user.ts';
import type { DashboardSessionRepository } from '../../domain/repositories/dashboard-session.repository.ts';
import type { DashboardSessionsTable, Database } from '../schema.ts';

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

export class KyselyDashboardSessionRepository implements DashboardSessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

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
}
