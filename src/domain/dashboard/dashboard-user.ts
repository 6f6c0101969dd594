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
