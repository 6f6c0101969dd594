import type { Role } from './roles.ts';

/** A person who signs in to the dashboard; one account can belong to several merchants. */
export type DashboardUser = {
  id: string;
  /** Lower case, trimmed: the sign-in name. */
  email: string;
  passwordHash: string;
  /** Sealed TOTP secret: set when enrolment starts, in force once `totpEnabledAt` is set. */
  totpSecret: string | null;
  totpEnabledAt: number | null;
  /** The last TOTP time step accepted, so a code is good once. */
  totpLastStep: number | null;
  /** SHA-256 hashes of the unused recovery codes. */
  recoveryCodes: string[];
  locale: string;
  createdAt: number;
};

export type Membership = { userId: string; merchantId: string; role: Role; createdAt: number };

export type Invitation = {
  tokenHash: string;
  merchantId: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
};

/** PASSWORD: the password was right and the second factor is still due. FULL: signed in. */
export type SessionStage = 'PASSWORD' | 'FULL';

export type DashboardSession = {
  idHash: string;
  userId: string;
  stage: SessionStage;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
};

export type PasswordReset = {
  tokenHash: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
};

export type AuditEntry = {
  id: string;
  merchantId: string;
  userId: string | null;
  /** Who, as shown: the user's e-mail, or `cli` for the command line. */
  actor: string;
  /** What, e.g. `api_key.revoke`, `payment_order.refund`, `member.invite`. */
  action: string;
  objectType: string;
  objectId: string | null;
  ip: string | null;
  detail: Record<string, string | number | boolean | null>;
  at: number;
};

export type MemberView = Membership & { email: string; totpEnabled: boolean };

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
