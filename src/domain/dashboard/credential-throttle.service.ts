import type { Clock } from '../shared/clock.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';

/** The window in which failures are counted; a locked account or address waits it out. */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

/** What became of one checked password or code. */
export type ThrottledCheck =
  | { kind: 'passed' }
  | { kind: 'refused' }
  | { kind: 'throttled'; retryAfterSeconds: number };

const accountKey = (email: string) => `account:${email}`;
const addressKey = (ip: string) => `address:${ip}`;

/**
 * The one limit on guessing a dashboard password or second factor, wherever it is checked:
 * sign-in and its code step, accepting an invitation with an existing account, turning
 * two-factor on or off. Failures are counted per account (its e-mail) and per address, in the
 * database, so every process shares the count and a restart keeps it. While either is over its
 * limit nothing is checked at all: the right password is refused like a wrong one.
 */
export class CredentialThrottle {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `check` (a password or code comparison) unless the account or the address is locked;
   * a failed check counts against both. A pass clears nothing: only a completed sign-in does
   * (`clear`), so a correct password elsewhere cannot reset the count of a second factor.
   */
  async attempt(email: string, ip: string, check: () => Promise<boolean>): Promise<ThrottledCheck> {
    const now = this.clock.now().getTime();
    const read = this.uow.read.credentialThrottle;
    const [account, address] = await Promise.all([
      read.failures(accountKey(email), now, THROTTLE_WINDOW_MS),
      read.failures(addressKey(ip), now, THROTTLE_WINDOW_MS),
    ]);
    if (account >= MAX_FAILURES_PER_ACCOUNT || address >= MAX_FAILURES_PER_ADDRESS) {
      return { kind: 'throttled', retryAfterSeconds: Math.ceil(THROTTLE_WINDOW_MS / 1000) };
    }
    if (await check()) {
      return { kind: 'passed' };
    }
    await this.uow.transaction(async (repos) => {
      await repos.credentialThrottle.recordFailure(accountKey(email), now, THROTTLE_WINDOW_MS);
      await repos.credentialThrottle.recordFailure(addressKey(ip), now, THROTTLE_WINDOW_MS);
    });
    return { kind: 'refused' };
  }

  /** Forgets the account's failures: its owner has just signed in all the way. */
  async clear(email: string): Promise<void> {
    await this.uow.transaction((repos) => repos.credentialThrottle.clearFailures(accountKey(email)));
  }
}
