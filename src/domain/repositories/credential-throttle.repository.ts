/** Failed password and second-factor checks counted per key (an account, an address) in a time window. */
export interface CredentialThrottleRepository {
  /**
   * Counts one more attempt against `key`, in one atomic step, unless `max` are already counted
   * in the window that contains `now` (a window that has passed starts again at one). True when
   * the attempt was counted. Two processes racing for the last slot cannot both get it.
   */
  takeSlot(key: string, now: number, windowMs: number, max: number): Promise<boolean>;
  /** Gives back one slot taken by an attempt that passed (it is not a failure after all). */
  releaseSlot(key: string): Promise<void>;
  clearFailures(key: string): Promise<void>;
}
