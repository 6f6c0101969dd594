import type { Clock } from '../shared/clock.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { CredentialThrottle } from './credential-throttle.service.ts';
import type { DashboardSession, DashboardUser, Membership } from './dashboard-user.ts';
import { verifyAgainstDummy, verifyPassword } from './password.ts';
import { hashRecoveryCode, matchRecoveryCode } from './recovery-codes.ts';
import { isTokenShaped, newToken, normalizeEmail, tokenHash } from './tokens.ts';
import { verifyTotp } from './totp.ts';

export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 3_600_000;
/** A second factor must follow the password within this time. */
const SECOND_FACTOR_MS = 10 * 60_000;
/** last_seen_at is written at most this often: a page view should not cost a write. */
const TOUCH_EVERY_MS = 60_000;

export type SignInResult =
  | { kind: 'signed-in'; token: string; needsSecondFactor: boolean }
  | { kind: 'refused' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export type ActiveSession = {
  token: string;
  session: DashboardSession;
  user: DashboardUser;
  memberships: Membership[];
};

/**
 * Signing in and staying signed in. A session is a random token in an HttpOnly cookie; only its
 * hash is stored. Every successful step (password, then the second factor) issues a new token,
 * so a token planted before sign-in is worth nothing after it. Both steps go through the
 * credential throttle; an unknown e-mail and a wrong password look and take the same.
 */
export class DashboardAuthService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly throttle: CredentialThrottle,
  ) {}

  private now(): number {
    return this.clock.now().getTime();
  }

  private async issue(
    userId: string,
    needsSecondFactor: boolean,
    ip: string,
    userAgent: string,
    now: number,
    replaces: string | null,
  ) {
    const token = newToken();
    await this.uow.transaction(async (repos) => {
      if (replaces) {
        await repos.dashboardSessions.deleteSession(replaces);
      }
      await repos.dashboardSessions.insertSession({
        idHash: tokenHash(token),
        userId,
        stage: needsSecondFactor ? 'PASSWORD' : 'FULL',
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + (needsSecondFactor ? SECOND_FACTOR_MS : SESSION_ABSOLUTE_MS),
        ip: ip.slice(0, 64),
        userAgent: userAgent.slice(0, 256),
      });
    });
    return token;
  }

  async signIn(rawEmail: string, password: string, ip: string, userAgent: string): Promise<SignInResult> {
    const email = normalizeEmail(rawEmail).slice(0, 254);
    const user = await this.uow.read.dashboardUsers.userByEmail(email);
    const checked = await this.throttle.attempt(email, ip, async () => {
      if (!user) {
        // As long as a real check: an unknown e-mail must not answer faster.
        await verifyAgainstDummy(password);
        return false;
      }
      return verifyPassword(password, user.passwordHash);
    });
    if (!user || checked.kind !== 'passed') {
      return checked.kind === 'throttled' ? checked : { kind: 'refused' };
    }
    const needsSecondFactor = user.totpEnabledAt !== null;
    if (!needsSecondFactor) {
      await this.throttle.clear(email);
    }
    return {
      kind: 'signed-in',
      token: await this.issue(user.id, needsSecondFactor, ip, userAgent, this.now(), null),
      needsSecondFactor,
    };
  }

  /**
   * The second step: a TOTP code (each time step good once) or one of the recovery codes (each
   * good once). Returns the new, fully signed-in token.
   */
  async secondFactor(token: string, code: string, ip: string, userAgent: string): Promise<SignInResult> {
    const pending = await this.lookup(token, 'PASSWORD');
    if (!pending) {
      return { kind: 'refused' };
    }
    const { user, session } = pending;
    const now = this.now();
    const checked = await this.throttle.attempt(user.email, ip, () => this.checkSecondFactor(user, code, now));
    if (checked.kind !== 'passed') {
      return checked;
    }
    await this.throttle.clear(user.email);
    return {
      kind: 'signed-in',
      token: await this.issue(user.id, false, ip, userAgent, now, session.idHash),
      needsSecondFactor: false,
    };
  }

  /** A TOTP code not used before, or an unused recovery code (spent by this check). */
  private async checkSecondFactor(user: DashboardUser, code: string, now: number): Promise<boolean> {
    const cleaned = code.replace(/\s+/g, '');
    if (/^\d{6}$/.test(cleaned) && user.totpSecret) {
      const checked = verifyTotp(this.box.open(user.totpSecret), cleaned, now, {
        window: 1,
        ...(user.totpLastStep !== null ? { lastUsedStep: user.totpLastStep } : {}),
      });
      return checked.ok && this.uow.transaction((repos) => repos.dashboardUsers.useTotpStep(user.id, checked.step));
    }
    const index = cleaned.length > 0 ? matchRecoveryCode(cleaned, user.recoveryCodes) : -1;
    const used = user.recoveryCodes[index];
    if (used === undefined) {
      return false;
    }
    return this.uow.transaction(async (repos) => {
      // Re-read inside the transaction: two requests racing with one code must not both pass.
      const fresh = await repos.dashboardUsers.userById(user.id);
      if (!fresh?.recoveryCodes.includes(used)) {
        return false;
      }
      await repos.dashboardUsers.updateUser(user.id, { recoveryCodes: fresh.recoveryCodes.filter((h) => h !== used) });
      return true;
    });
  }

  /** The session behind a cookie, if it is alive (idle ≤ 12 h, age ≤ 7 days) and at this stage. */
  async lookup(token: string, stage: DashboardSession['stage'] = 'FULL'): Promise<ActiveSession | null> {
    if (!isTokenShaped(token)) {
      return null;
    }
    const idHash = tokenHash(token);
    const read = this.uow.read.dashboardSessions;
    const session = await read.session(idHash);
    const now = this.now();
    if (!session || session.stage !== stage) {
      return null;
    }
    if (session.expiresAt <= now || session.lastSeenAt + SESSION_IDLE_MS <= now) {
      await this.uow.transaction((repos) => repos.dashboardSessions.deleteSession(idHash));
      return null;
    }
    const user = await this.uow.read.dashboardUsers.userById(session.userId);
    if (!user) {
      return null;
    }
    if (now - session.lastSeenAt >= TOUCH_EVERY_MS) {
      await this.uow.transaction((repos) => repos.dashboardSessions.touchSession(idHash, now));
    }
    return { token, session, user, memberships: await this.uow.read.memberships.membershipsOf(user.id) };
  }

  async signOut(token: string): Promise<void> {
    if (isTokenShaped(token)) {
      await this.uow.transaction((repos) => repos.dashboardSessions.deleteSession(tokenHash(token)));
    }
  }

  /** Ends every session of the user but this one (`keep` null: this one too). */
  async signOutEverywhere(userId: string, keepToken: string | null): Promise<number> {
    return this.uow.transaction((repos) =>
      repos.dashboardSessions.deleteSessionsOf(userId, keepToken === null ? null : tokenHash(keepToken)),
    );
  }

  async sessions(userId: string): Promise<DashboardSession[]> {
    return this.uow.read.dashboardSessions.sessionsOf(userId, this.now());
  }

  /** Hashes recovery codes for storage (exposed for the enrolment step). */
  static hashCodes(codes: readonly string[]): string[] {
    return codes.map(hashRecoveryCode);
  }
}
