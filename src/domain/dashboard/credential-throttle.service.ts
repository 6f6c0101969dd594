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

const THROTTLED: ThrottledCheck = { kind: 'throttled', retryAfterSeconds: Math.ceil(THROTTLE_WINDOW_MS / 1000) };

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
   *
   * The attempt takes its slot before the check, atomically, and gives it back if it passes:
   * counting after the check would let a burst of concurrent guesses all read "4 failures" and
   * all be checked.
   */
  async attempt(email: string, ip: string, check: () => Promise<boolean>): Promise<ThrottledCheck> {
    const now = this.clock.now().getTime();
    const account = accountKey(email);
    const address = addressKey(ip);
    const take = (key: string, max: number) =>
      this.uow.transaction((repos) => repos.credentialThrottle.takeSlot(key, now, THROTTLE_WINDOW_MS, max));
    const release = (...keys: string[]) =>
      this.uow.transaction(async (repos) => {
        for (const key of keys) {
          await repos.credentialThrottle.releaseSlot(key);
        }
      });
    if (!(await take(account, MAX_FAILURES_PER_ACCOUNT))) {
      return THROTTLED;
    }
    if (!(await take(address, MAX_FAILURES_PER_ADDRESS))) {
      await release(account);
      return THROTTLED;
    }
    let passed: boolean;
    try {
      passed = await check();
    } catch (error) {
      // The check itself failed (the store is down): that is not a wrong guess.
      await release(account, address).catch(() => undefined);
      throw error;
    }
    if (passed) {
      await release(account, address);
      return { kind: 'passed' };
    }
    return { kind: 'refused' };
  }

  /** Forgets the account's failures: its owner has just signed in all the way. */
  async clear(email: string): Promise<void> {
    await this.uow.transaction((repos) => repos.credentialThrottle.clearFailures(accountKey(email)));
  }
}
