import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { hashPassword, passwordProblem, verifyPassword } from './password.ts';
import { generateRecoveryCodes, hashRecoveryCode } from './recovery-codes.ts';
import { PASSWORD_MESSAGES, queueAccountMail } from './team.service.ts';
import { isTokenShaped, newToken, normalizeEmail, tokenHash } from './tokens.ts';
import { generateTotpSecret, otpauthUri, verifyTotp } from './totp.ts';

const RESET_TTL_MS = 60 * 60_000;

/**
 * One's own account: password reset by e-mailed link (valid an hour, once; it ends every
 * session), and two-factor enrolment (a secret shown as a QR code, confirmed by a first code,
 * then ten one-time recovery codes shown once).
 */
export class AccountService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly publicUrl: string,
  ) {}

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

  /** Confirms enrolment with a first code; returns the ten recovery codes (shown once), or null for a wrong code. */
  async confirmTwoFactor(userId: string, code: string): Promise<string[] | null> {
    const pending = await this.pendingTwoFactor(userId);
    if (!pending) {
      throw new AppError('CONFLICT', ['start two-factor enrolment first']);
    }
    const now = this.clock.now().getTime();
    const checked = verifyTotp(pending.secret, code.replace(/\s+/g, ''), now, { window: 1 });
    if (!checked.ok) {
      return null;
    }
    const codes = generateRecoveryCodes();
    await this.uow.transaction((repos) =>
      repos.dashboardUsers.updateUser(userId, {
        totpEnabledAt: now,
        totpLastStep: checked.step,
        recoveryCodes: codes.map(hashRecoveryCode),
      }),
    );
    return codes;
  }

  /** Turns two-factor off; the password is asked again. */
  async disableTwoFactor(userId: string, password: string): Promise<boolean> {
    const user = await this.uow.read.dashboardUsers.userById(userId);
    if (!user || !(await verifyPassword(password, user.passwordHash))) {
      return false;
    }
    await this.uow.transaction((repos) =>
      repos.dashboardUsers.updateUser(userId, {
        totpSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
        recoveryCodes: [],
      }),
    );
    return true;
  }
}
