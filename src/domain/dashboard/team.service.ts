import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { Actor } from './audit.ts';
import { audit } from './audit.ts';
import type { CredentialThrottle } from './credential-throttle.service.ts';
import type { Invitation, MemberView } from './dashboard-user.ts';
import { hashPassword, passwordProblem, verifyPassword } from './password.ts';
import type { Role } from './roles.ts';
import { isRole } from './roles.ts';
import { isEmailShaped, isTokenShaped, newToken, normalizeEmail, tokenHash } from './tokens.ts';

export const INVITATION_TTL_MS = 72 * 3_600_000;

export type IssuedInvitation = { email: string; role: Role; merchantId: string; inviteUrl: string };

/** Accepting an invitation: the member's user id, what to fix on the form, or the throttle's wait. */
export type Acceptance =
  | { ok: true; userId: string }
  | { ok: false; problems: string[] }
  | { ok: false; throttled: true; retryAfterSeconds: number };

/** Why a password was refused, as shown on the form. */
export const PASSWORD_MESSAGES: Record<string, string> = {
  too_short: 'Use at least 12 characters.',
  too_long: 'Use at most 256 characters.',
  common: 'This password is too common; choose another.',
  contains_email: 'Do not use your e-mail address as your password.',
  mismatch: 'The two passwords do not match.',
};

/** Queues an account mail (invitation, reset) in the caller's transaction; the mail job sends it. */
export async function queueAccountMail(
  repos: Repositories,
  mail: { merchantId: string; to: string; subject: string; text: string },
  now: number,
): Promise<void> {
  await repos.emails.insert({
    id: newId(),
    merchantId: mail.merchantId,
    mode: 'live',
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    status: 'PENDING',
    attempts: 0,
    lastError: null,
    createdAt: now,
    sentAt: null,
  });
}

/**
 * The people of a merchant: invitations (a link valid 72 hours, once), accepting one (a new
 * account with a password, or a membership for an existing account), roles, removal. The last
 * owner can be neither demoted nor removed. Every change is audited in its own transaction.
 */
export class TeamService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    private readonly throttle: CredentialThrottle,
  ) {}

  async invite(merchantId: string, rawEmail: string, role: string, by: Actor): Promise<IssuedInvitation> {
    const email = normalizeEmail(rawEmail);
    if (!isEmailShaped(email)) {
      throw new AppError('WRONG_INPUT', ['email must be an e-mail address']);
    }
    if (!isRole(role)) {
      throw new AppError('WRONG_INPUT', ['role must be one of owner, admin, developer, viewer']);
    }
    const token = newToken();
    const now = this.clock.now().getTime();
    const inviteUrl = `${this.publicUrl}/dashboard/invitations/${token}`;
    await this.uow.transaction(async (repos) => {
      const merchant = await repos.merchants.get(merchantId);
      if (!merchant) {
        throw new AppError('NOT_FOUND', ['merchant not found']);
      }
      await repos.invitations.insertInvitation({
        tokenHash: tokenHash(token),
        merchantId,
        email,
        role,
        invitedBy: by.userId,
        createdAt: now,
        expiresAt: now + INVITATION_TTL_MS,
        usedAt: null,
      });
      await queueAccountMail(
        repos,
        {
          merchantId,
          to: email,
          subject: `You are invited to ${merchant.name} on Cobro`,
          text: [
            `You are invited to the Cobro dashboard of ${merchant.name} as ${role}.`,
            '',
            `Accept within 72 hours: ${inviteUrl}`,
            '',
            'If you did not expect this, ignore this message.',
          ].join('\n'),
        },
        now,
      );
      await audit(
        repos,
        by,
        { merchantId, action: 'member.invite', objectType: 'invitation', objectId: null, detail: { email, role } },
        now,
      );
    });
    return { email, role, merchantId, inviteUrl };
  }

  /** The invitation behind a link, if it can still be accepted (unknown, used and expired look alike). */
  private async usable(token: string): Promise<Invitation | null> {
    if (!isTokenShaped(token)) {
      return null;
    }
    const inv = await this.uow.read.invitations.invitation(tokenHash(token));
    return inv && inv.usedAt === null && inv.expiresAt > this.clock.now().getTime() ? inv : null;
  }

  /** What the invitation page shows: the invitation, whose it is, and whether the address has an account. */
  async openInvitation(token: string): Promise<(Invitation & { merchantName: string; accountExists: boolean }) | null> {
    const inv = await this.usable(token);
    if (!inv) {
      return null;
    }
    const merchant = await this.uow.read.merchants.get(inv.merchantId);
    const existing = await this.uow.read.dashboardUsers.userByEmail(inv.email);
    return { ...inv, merchantName: merchant?.name ?? '', accountExists: existing !== undefined };
  }

  /**
   * Accepts an invitation: a new account gets the password (checked by the policy); an existing
   * account proves itself with its current password, through the credential throttle (whoever
   * can invite must not get a way to guess someone's password).
   */
  async accept(token: string, password: string, confirmation: string, ip: string): Promise<Acceptance> {
    const inv = await this.usable(token);
    if (!inv) {
      throw new AppError('NOT_FOUND', ['this invitation is unknown, used or expired']);
    }
    const existing = await this.uow.read.dashboardUsers.userByEmail(inv.email);
    let passwordHash: string | null = null;
    if (existing) {
      const checked = await this.throttle.attempt(existing.email, ip, () =>
        verifyPassword(password, existing.passwordHash),
      );
      if (checked.kind === 'throttled') {
        return { ok: false, throttled: true, retryAfterSeconds: checked.retryAfterSeconds };
      }
      if (checked.kind === 'refused') {
        return { ok: false, problems: ['This is not the password of your existing account.'] };
      }
    } else {
      const problem = password !== confirmation ? 'mismatch' : passwordProblem(password, { email: inv.email });
      if (problem) {
        return { ok: false, problems: [PASSWORD_MESSAGES[problem] ?? problem] };
      }
      passwordHash = await hashPassword(password);
    }
    const now = this.clock.now().getTime();
    return this.uow.transaction(async (repos) => {
      if (!(await repos.invitations.useInvitation(inv.tokenHash, now))) {
        throw new AppError('NOT_FOUND', ['this invitation is unknown, used or expired']);
      }
      let userId = existing?.id ?? null;
      if (userId === null) {
        // Another invitation for the same address may have made the account in the meantime.
        const raced = await repos.dashboardUsers.userByEmail(inv.email);
        userId = raced?.id ?? newId();
        if (!raced && passwordHash !== null) {
          await repos.dashboardUsers.insertUser({
            id: userId,
            email: inv.email,
            passwordHash,
            totpSecret: null,
            totpEnabledAt: null,
            totpLastStep: null,
            recoveryCodes: [],
            locale: 'en',
            createdAt: now,
          });
        }
      }
      await repos.memberships.upsertMembership({ userId, merchantId: inv.merchantId, role: inv.role, createdAt: now });
      await audit(
        repos,
        { userId, label: inv.email, ip },
        {
          merchantId: inv.merchantId,
          action: 'member.join',
          objectType: 'member',
          objectId: userId,
          detail: { role: inv.role },
        },
        now,
      );
      return { ok: true as const, userId };
    });
  }

  async merchant(merchantId: string): Promise<{ id: string; name: string } | undefined> {
    return this.uow.read.merchants.get(merchantId);
  }

  async members(merchantId: string): Promise<MemberView[]> {
    return this.uow.read.memberships.members(merchantId);
  }

  async pendingInvitations(merchantId: string): Promise<Invitation[]> {
    return this.uow.read.invitations.pendingInvitations(merchantId, this.clock.now().getTime());
  }

  async changeRole(merchantId: string, userId: string, role: string, by: Actor): Promise<void> {
    if (!isRole(role)) {
      throw new AppError('WRONG_INPUT', ['role must be one of owner, admin, developer, viewer']);
    }
    const now = this.clock.now().getTime();
    await this.uow.transaction(async (repos) => {
      const current = await repos.memberships.membership(userId, merchantId);
      if (!current) {
        throw new AppError('NOT_FOUND', ['member not found']);
      }
      if (current.role === 'owner' && role !== 'owner' && (await repos.memberships.countOwners(merchantId)) <= 1) {
        throw new AppError('CONFLICT', ['the last owner cannot be given another role; make someone else owner first']);
      }
      await repos.memberships.upsertMembership({ ...current, role });
      await audit(
        repos,
        by,
        {
          merchantId,
          action: 'member.role',
          objectType: 'member',
          objectId: userId,
          detail: { from: current.role, to: role },
        },
        now,
      );
    });
  }

  async remove(merchantId: string, userId: string, by: Actor): Promise<void> {
    const now = this.clock.now().getTime();
    await this.uow.transaction(async (repos) => {
      const current = await repos.memberships.membership(userId, merchantId);
      if (!current) {
        throw new AppError('NOT_FOUND', ['member not found']);
      }
      if (current.role === 'owner' && (await repos.memberships.countOwners(merchantId)) <= 1) {
        throw new AppError('CONFLICT', ['the last owner cannot be removed']);
      }
      await repos.memberships.removeMembership(userId, merchantId);
      await audit(
        repos,
        by,
        { merchantId, action: 'member.remove', objectType: 'member', objectId: userId, detail: { role: current.role } },
        now,
      );
    });
  }
}
