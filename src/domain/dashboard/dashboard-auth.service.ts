import type { Clock } from '../shared/clock.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
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

const THROTTLE_WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_ACCOUNT = 5;
const MAX_FAILURES_PER_ADDRESS = 20;

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

const accountKey = (email: string) => `account:${email}`;
const addressKey = (ip: string) => `address:${ip}`;

/**
 * Signing in and staying signed in. A session is a random token in an HttpOnly cookie; only its
 * hash is stored. Every successful step (password, then the second factor) issues a new token,
 * so a token planted before sign-in is worth nothing after it. Failures are counted per account
 * and per address in the database, shared by every process; an unknown e-mail and a wrong
 * password look and take the same.
 */
export class DashboardAuthService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
  ) {}

  private now(): number {
    return this.clock.now().getTime();
  }

  private async throttled(email: string, ip: string, now: number): Promise<number | null> {
    const read = this.uow.read.signInThrottle;
    const [account, address] = await Promise.all([
      read.failures(accountKey(email), now, THROTTLE_WINDOW_MS),
      read.failures(addressKey(ip), now, THROTTLE_WINDOW_MS),
    ]);
    return account >= MAX_FAILURES_PER_ACCOUNT || address >= MAX_FAILURES_PER_ADDRESS
      ? Math.ceil(THROTTLE_WINDOW_MS / 1000)
      : null;
  }

  private async fail(email: string, ip: string, now: number): Promise<void> {
    await this.uow.transaction(async (repos) => {
      await repos.signInThrottle.recordFailure(accountKey(email), now, THROTTLE_WINDOW_MS);
      await repos.signInThrottle.recordFailure(addressKey(ip), now, THROTTLE_WINDOW_MS);
    });
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
    const now = this.now();
    const wait = await this.throttled(email, ip, now);
    if (wait !== null) {
      return { kind: 'throttled', retryAfterSeconds: wait };
    }
    const user = await this.uow.read.dashboardUsers.userByEmail(email);
    const ok = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDummy(password);
    if (!user || !ok) {
      await this.fail(email, ip, now);
      return { kind: 'refused' };
    }
    const needsSecondFactor = user.totpEnabledAt !== null;
    if (!needsSecondFactor) {
      await this.uow.transaction((repos) => repos.signInThrottle.clearFailures(accountKey(email)));
    }
    return {
      kind: 'signed-in',
      token: await this.issue(user.id, needsSecondFactor, ip, userAgent, now, null),
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
    const wait = await this.throttled(user.email, ip, now);
    if (wait !== null) {
      return { kind: 'throttled', retryAfterSeconds: wait };
    }
    const cleaned = code.replace(/\s+/g, '');
    let accepted = false;
    if (/^\d{6}$/.test(cleaned) && user.totpSecret) {
      const checked = verifyTotp(this.box.open(user.totpSecret), cleaned, now, {
        window: 1,
        ...(user.totpLastStep !== null ? { lastUsedStep: user.totpLastStep } : {}),
      });
      accepted =
        checked.ok && (await this.uow.transaction((repos) => repos.dashboardUsers.useTotpStep(user.id, checked.step)));
    } else if (cleaned.length > 0) {
      const index = matchRecoveryCode(cleaned, user.recoveryCodes);
      if (index !== -1) {
        const used = user.recoveryCodes[index];
        accepted = await this.uow.transaction(async (repos) => {
          // Re-read inside the transaction: two requests racing with one code must not both pass.
          const fresh = await repos.dashboardUsers.userById(user.id);
          if (!fresh?.recoveryCodes.includes(used ?? '')) {
            return false;
          }
          await repos.dashboardUsers.updateUser(user.id, {
            recoveryCodes: fresh.recoveryCodes.filter((h) => h !== used),
          });
          return true;
        });
      }
    }
    if (!accepted) {
      await this.fail(user.email, ip, now);
      return { kind: 'refused' };
    }
    await this.uow.transaction((repos) => repos.signInThrottle.clearFailures(accountKey(user.email)));
    return {
      kind: 'signed-in',
      token: await this.issue(user.id, false, ip, userAgent, now, session.idHash),
      needsSecondFactor: false,
    };
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
