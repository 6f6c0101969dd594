export interface TestClockRepository {
  getOffset(merchantId: string): Promise<number>;
  setOffset(merchantId: string, offsetMs: number): Promise<void>;
  /** Merchants whose test clock is moved, with their offsets. */
  all(): Promise<{ merchantId: string; offsetMs: number }[]>;
}
