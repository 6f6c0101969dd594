import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { CredentialThrottle, ThrottledCheck } from './credential-throttle.service.ts';
import { hashPassword, passwordProblem, verifyPassword } from './password.ts';
import { generateRecoveryCodes, hashRecoveryCode } from './recovery-codes.ts';
import { PASSWORD_MESSAGES, queueAccountMail } from './team.service.ts';
import { isTokenShaped, newToken, normalizeEmail, tokenHash } from './tokens.ts';
import { generateTotpSecret, otpauthUri, verifyTotp } from './totp.ts';

const RESET_TTL_MS = 60 * 60_000;

/** Turning two-factor on: the recovery codes (shown once), or why not. */
export type TwoFactorConfirmation =
  | { kind: 'on'; codes: string[] }
  | { kind: 'wrong-password' }
  | { kind: 'wrong-code' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/** Who is changing their own second factor, from which session and address. */
export type OwnAccount = { userId: string; sessionIdHash: string; ip: string };

/**
 * One's own account: password reset by e-mailed link (valid an hour, once; it ends every
 * session), and two-factor enrolment (a secret shown as a QR code, confirmed by a first code,
 * then ten one-time recovery codes shown once). Turning two-factor on or off asks for the
 * password again, through the credential throttle: a session alone (a stolen one) can neither
 * enrol its own authenticator nor remove the owner's.
 */
export class AccountService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly publicUrl: string,
    private readonly throttle: CredentialThrottle,
  ) {}

  /** The account's password, checked through the throttle. */
  private async checkPassword(user: { email: string; passwordHash: string }, password: string, ip: string) {
    return this.throttle.attempt(user.email, ip, () => verifyPassword(password, user.passwordHash));
  }

  /** Queues a reset link when the address has an account; says nothing either way (no account probing). */
  async requestReset(rawEmail: string): Promise<void> {
    const email = normalizeEmail(rawEmail).slice(0, 254);
    const user = await this.uow.read.dashboardUsers.userByEmail(email);
    if (!user) {
      return;
    }
    const memberships = await this.uow.read.memberships.membershipsOf(user.id);
    const merchantId = memberships[0]?.merchantId;
    if (!merchantId) {
      return;
    }
    const token = newToken();
    const now = this.clock.now().getTime();
    await this.uow.transaction(async (repos) => {
      await repos.passwordResets.insertPasswordReset({
        tokenHash: tokenHash(token),
        userId: user.id,
        createdAt: now,
        expiresAt: now + RESET_TTL_MS,
        usedAt: null,
      });
      await queueAccountMail(
        repos,
        {
          merchantId,
          to: email,
          subject: 'Reset your Cobro password',
          text: [
            'Someone asked to reset the password of your Cobro dashboard account.',
            '',
            `Choose a new password within an hour: ${this.publicUrl}/dashboard/reset/${token}`,
            '',
            'If it was not you, ignore this message: your password stays as it is.',
          ].join('\n'),
        },
        now,
      );
    });
  }

  /** The account a reset link is for, if the link is still good. */
  async openReset(token: string): Promise<{ email: string } | null> {
    if (!isTokenShaped(token)) {
      return null;
    }
    const reset = await this.uow.read.passwordResets.passwordReset(tokenHash(token));
    if (!reset || reset.usedAt !== null || reset.expiresAt <= this.clock.now().getTime()) {
      return null;
    }
    const user = await this.uow.read.dashboardUsers.userById(reset.userId);
    return user ? { email: user.email } : null;
  }

  async reset(
    token: string,
    password: string,
    confirmation: string,
  ): Promise<{ ok: true } | { ok: false; problems: string[] }> {
    const open = await this.openReset(token);
    if (!open) {
      throw new AppError('NOT_FOUND', ['this link is unknown, used or expired']);
    }
    const problem = password !== confirmation ? 'mismatch' : passwordProblem(password, { email: open.email });
    if (problem) {
      return { ok: false, problems: [PASSWORD_MESSAGES[problem] ?? problem] };
    }
    const passwordHash = await hashPassword(password);
    const now = this.clock.now().getTime();
    await this.uow.transaction(async (repos) => {
      const reset = await repos.passwordResets.passwordReset(tokenHash(token));
      if (!reset || !(await repos.passwordResets.usePasswordReset(reset.tokenHash, now))) {
        throw new AppError('NOT_FOUND', ['this link is unknown, used or expired']);
      }
      await repos.dashboardUsers.updateUser(reset.userId, { passwordHash });
      // Whoever knew the old password is signed out too.
      await repos.dashboardSessions.deleteSessionsOf(reset.userId, null);
    });
    return { ok: true };
  }

  /** Starts (or restarts) enrolment: a fresh secret, not yet in force. */
  async beginTwoFactor(userId: string): Promise<{ secret: string; uri: string }> {
    const user = await this.uow.read.dashboardUsers.userById(userId);
    if (!user) {
      throw new AppError('NOT_FOUND', ['user not found']);
    }
    if (user.totpEnabledAt !== null) {
      throw new AppError('CONFLICT', ['two-factor authentication is already on']);
    }
    const secret = generateTotpSecret();
    await this.uow.transaction((repos) =>
      repos.dashboardUsers.updateUser(userId, { totpSecret: this.box.seal(secret) }),
    );
    return { secret, uri: otpauthUri({ secret, accountName: user.email, issuer: 'Cobro' }) };
  }

  /** The secret being enrolled, to show again (e.g. after a wrong first code). */
  async pendingTwoFactor(userId: string): Promise<{ secret: string; uri: string } | null> {
    const user = await this.uow.read.dashboardUsers.userById(userId);
    if (!user || user.totpEnabledAt !== null || !user.totpSecret) {
      return null;
    }
    const secret = this.box.open(user.totpSecret);
    return { secret, uri: otpauthUri({ secret, accountName: user.email, issuer: 'Cobro' }) };
  }

  /**
   * Confirms enrolment with the password and a first code; returns the ten recovery codes (shown
   * once). Every other session of the account ends: it was opened with the password alone.
   */
  async confirmTwoFactor(own: OwnAccount, password: string, code: string): Promise<TwoFactorConfirmation> {
    const user = await this.uow.read.dashboardUsers.userById(own.userId);
    const pending = await this.pendingTwoFactor(own.userId);
    if (!user || !pending) {
      throw new AppError('CONFLICT', ['start two-factor enrolment first']);
    }
    const proof = await this.checkPassword(user, password, own.ip);
    if (proof.kind !== 'passed') {
      return proof.kind === 'throttled' ? proof : { kind: 'wrong-password' };
    }
    const now = this.clock.now().getTime();
    const checked = verifyTotp(pending.secret, code.replace(/\s+/g, ''), now, { window: 1 });
    if (!checked.ok) {
      return { kind: 'wrong-code' };
    }
    const codes = generateRecoveryCodes();
    await this.uow.transaction(async (repos) => {
      await repos.dashboardUsers.updateUser(own.userId, {
        totpEnabledAt: now,
        totpLastStep: checked.step,
        recoveryCodes: codes.map(hashRecoveryCode),
      });
      await repos.dashboardSessions.deleteSessionsOf(own.userId, own.sessionIdHash);
    });
    return { kind: 'on', codes };
  }

  /**
   * Turns two-factor off after the password. Other sessions stay: each of them passed the second
   * factor (those from before enrolment ended with it), so turning it off gives them nothing.
   */
  async disableTwoFactor(own: OwnAccount, password: string): Promise<ThrottledCheck> {
    const user = await this.uow.read.dashboardUsers.userById(own.userId);
    if (!user) {
      throw new AppError('NOT_FOUND', ['user not found']);
    }
    const checked = await this.checkPassword(user, password, own.ip);
    if (checked.kind !== 'passed') {
      return checked;
    }
    await this.uow.transaction((repos) =>
      repos.dashboardUsers.updateUser(own.userId, {
        totpSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
        recoveryCodes: [],
      }),
    );
    return checked;
  }
}
