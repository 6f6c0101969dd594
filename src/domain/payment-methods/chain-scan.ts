// What a scan of an EVM chain records: how far it got, and the token transfers it found.

/** The end of a scan: a block and its hash, with the ends of the scans before it (newest first). */
export type ScanCursor = { block: number; hash: string; checkpoints: { block: number; hash: string }[] };

/** An ERC-20 `Transfer` as a log reports it. */
export type TokenTransfer = {
  contract: string;
  to: string;
  amount: bigint;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
};
