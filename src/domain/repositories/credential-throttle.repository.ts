/** Failed password and second-factor checks counted per key (an account, an address) in a time window. */
export interface CredentialThrottleRepository {
  /** Failures counted for `key` in the window that contains `now` (0 when the window has passed). */
  failures(key: string, now: number, windowMs: number): Promise<number>;
  recordFailure(key: string, now: number, windowMs: number): Promise<void>;
  clearFailures(key: string): Promise<void>;
}
