import type {
  AuditEntry,
  DashboardSession,
  DashboardUser,
  Invitation,
  Membership,
  MemberView,
  PasswordReset,
  SessionStage,
} from '../dashboard/dashboard-user.ts';

export interface DashboardRepository {
  insertUser(user: DashboardUser): Promise<void>;
  userById(id: string): Promise<DashboardUser | undefined>;
  userByEmail(email: string): Promise<DashboardUser | undefined>;
  updateUser(
    id: string,
    patch: Partial<
      Pick<DashboardUser, 'passwordHash' | 'totpSecret' | 'totpEnabledAt' | 'totpLastStep' | 'recoveryCodes' | 'locale'>
    >,
  ): Promise<void>;
  /** Sets the last used TOTP step only if it is newer; false when the step was already used. */
  useTotpStep(userId: string, step: number): Promise<boolean>;

  upsertMembership(membership: Membership): Promise<void>;
  membership(userId: string, merchantId: string): Promise<Membership | undefined>;
  membershipsOf(userId: string): Promise<Membership[]>;
  members(merchantId: string): Promise<MemberView[]>;
  removeMembership(userId: string, merchantId: string): Promise<void>;
  countOwners(merchantId: string): Promise<number>;

  insertInvitation(invitation: Invitation): Promise<void>;
  invitation(tokenHash: string): Promise<Invitation | undefined>;
  /** Marks it used only if it was unused; false when another request used it first. */
  useInvitation(tokenHash: string, at: number): Promise<boolean>;
  pendingInvitations(merchantId: string, now: number): Promise<Invitation[]>;

  insertSession(session: DashboardSession): Promise<void>;
  session(idHash: string): Promise<DashboardSession | undefined>;
  touchSession(idHash: string, at: number): Promise<void>;
  setSessionStage(idHash: string, stage: SessionStage, at: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** Deletes every session of the user except `keep`; returns how many went. */
  deleteSessionsOf(userId: string, keep: string | null): Promise<number>;
  sessionsOf(userId: string, now: number): Promise<DashboardSession[]>;

  insertPasswordReset(reset: PasswordReset): Promise<void>;
  passwordReset(tokenHash: string): Promise<PasswordReset | undefined>;
  usePasswordReset(tokenHash: string, at: number): Promise<boolean>;

  /** Failures counted for `key` in the window that contains `now` (0 when the window has passed). */
  failures(key: string, now: number, windowMs: number): Promise<number>;
  recordFailure(key: string, now: number, windowMs: number): Promise<void>;
  clearFailures(key: string): Promise<void>;

  insertAudit(entry: AuditEntry): Promise<void>;
  /** Newest first; `before` is the `at:id` cursor of the last entry of the previous page. */
  audit(merchantId: string, limit: number, before: { at: number; id: string } | null): Promise<AuditEntry[]>;
}
