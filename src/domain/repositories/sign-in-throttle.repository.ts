/** Failed sign-in attempts counted per key in a time window. */
export interface SignInThrottleRepository {
  /** Failures counted for `key` in the window that contains `now` (0 when the window has passed). */
  failures(key: string, now: number, windowMs: number): Promise<number>;
  recordFailure(key: string, now: number, windowMs: number): Promise<void>;
  clearFailures(key: string): Promise<void>;
}
