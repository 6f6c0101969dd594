import type { DashboardSession, SessionStage } from '../dashboard/dashboard-user.ts';

/** Signed-in dashboard sessions, by the hash of their id. */
export interface DashboardSessionRepository {
  insertSession(session: DashboardSession): Promise<void>;
  session(idHash: string): Promise<DashboardSession | undefined>;
  touchSession(idHash: string, at: number): Promise<void>;
  setSessionStage(idHash: string, stage: SessionStage, at: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** Deletes every session of the user except `keep`; returns how many went. */
  deleteSessionsOf(userId: string, keep: string | null): Promise<number>;
  sessionsOf(userId: string, now: number): Promise<DashboardSession[]>;
}
