import type { ScanCursor, TokenTransfer } from '../payment-methods/chain-scan.ts';

/** Where an EVM network's scan stands, and the transfers it found (migration 0015). */
export interface ChainScanStore {
  cursor(network: string): Promise<ScanCursor | null>;
  /**
   * Moves the cursor from `expected` (null: the network has none yet) to `next` and records
   * `transfers`, in one transaction; false, with nothing written, when another process moved
   * the cursor first (several workers scan the same chain, and one write wins).
   */
  advance(network: string, expected: ScanCursor | null, next: ScanCursor, transfers: TokenTransfer[]): Promise<boolean>;
  /** Forgets the transfers above `fork.block` and moves the cursor back to `fork`, if it is still at `expected`. */
  rewind(network: string, expected: ScanCursor, fork: ScanCursor): Promise<boolean>;
  /** The transfers recorded to `addresses` (lowercase). */
  transfersTo(network: string, addresses: string[]): Promise<TokenTransfer[]>;
}
