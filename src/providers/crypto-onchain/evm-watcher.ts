import type { ScanCursor, TokenTransfer } from '../../domain/payment-methods/chain-scan.ts';
import type {
  ChainPayment,
  ChainSourceStatus,
  ChainTokenStatus,
  ChainWatch,
} from '../../domain/payment-methods/payment-provider.ts';
import type { ChainScanStore } from '../../domain/repositories/chain-scan.repository.ts';
import { ChainSourceError } from './chain-http.ts';
import { ContractCallError, type EvmRpcClient } from './evm-rpc.ts';

export type EvmWatcherOptions = {
  network: string;
  /** The chain the node must be on: a node of another chain is refused, never believed. */
  chainId: number;
  /** The token contract of each currency watched on this network (lowercase addresses). */
  tokens: Readonly<Record<string, string>>;
  /** The catalogue's decimals of a currency: a contract's own must agree, or its token is disabled. */
  decimalsOf: (currency: string) => number;
  /** Blocks per eth_getLogs call at most. */
  maxRange?: number;
  /** Ranges scanned per tick at most, so one tick stays short while a long outage is caught up. */
  maxRangesPerTick?: number;
  /** Scan ends remembered to find a fork point; a reorg deeper than the oldest is not seen. */
  maxCheckpoints?: number;
  /** Where a network's first scan starts, in blocks before the tip. */
  initialLookback?: number;
  /** Recipients per eth_getLogs call at most (one topic list). */
  addressesPerCall?: number;
  /**
   * After `failures` failures in a row, how long to leave the node alone before asking again
   * (none: ask at every refresh). A node that is down or overloaded is not hammered; nor is a
   * disabled token's contract, checked again on the same schedule.
   */
  backoffMs?: (failures: number) => number;
  now?: () => number;
  onTip?: (height: number) => void;
  onReorg?: (fromBlock: number, toBlock: number) => void;
  /** A token was disabled (or failed its check again for another reason), or enabled after that. */
  onTokenChange?: (currency: string, token: ChainTokenStatus) => void;
};

type Token = ChainTokenStatus & { currency: string; failuresInRow: number; retryAt: number };

/**
 * One EVM network in live mode: ERC-20 `Transfer` logs of the watched tokens to the open orders'
 * addresses, scanned range by range from where the last scan ended (kept in the database), and
 * counted with their confirmations from the tip.
 *
 * The tip is read by `refresh()`, before the service lists the orders to watch: an order opened
 * after that is paid in a later block, which the next tick scans with its address. A reorg is
 * seen when the block a scan ended on has another hash: the scan goes back to the newest end
 * whose block is unchanged (the fork point), forgets what it recorded above it, and scans again;
 * an order is only ever closed by what has its required confirmations on the node's best chain.
 *
 * The node's chain id is checked once, and a node of another chain fails the whole source. Each
 * token's `decimals()` is checked on its own: a token whose contract does not answer it, or
 * answers other decimals than the catalogue's, is DISABLED — its transfers are not counted and
 * no live order is opened in it — while the network's other tokens go on. A disabled token is
 * checked again on the source's backoff schedule (one poll, then two, four… up to the cap), so a
 * revert from a node still syncing, or a contract deployed later, does not disable it for good;
 * it is enabled again as soon as its check passes. A check the node itself fails (no answer, an
 * error status, a refusal other than the contract's revert) is the node's failure, as any other
 * call's: the whole source fails and backs off, and the token is checked again with it.
 */
export class EvmWatcher {
  private tip: number | null = null;
  private highestTip = 0;
  private failure: unknown = null;
  private errors = 0;
  private failuresInRow = 0;
  private retryAt = 0;
  private chainVerified = false;
  private lag: number | null = null;
  private readonly contracts: string[];
  /** The watched tokens by (lowercase) contract. */
  private readonly tokens: Map<string, Token>;
  private readonly maxRange: number;
  /** Blocks per eth_getLogs call now: halved when the node refuses a range (hosted nodes cap them). */
  private range: number;
  private readonly maxRangesPerTick: number;
  private readonly maxCheckpoints: number;
  private readonly initialLookback: number;
  private readonly addressesPerCall: number;

  constructor(
    private readonly rpc: EvmRpcClient,
    private readonly store: ChainScanStore,
    private readonly options: EvmWatcherOptions,
  ) {
    this.tokens = new Map(
      Object.entries(options.tokens).map(([currency, c]) => [
        c.toLowerCase(),
        { currency, contract: c.toLowerCase(), status: 'UNVERIFIED', reason: null, failuresInRow: 0, retryAt: 0 },
      ]),
    );
    this.contracts = [...this.tokens.keys()];
    this.maxRange = options.maxRange ?? 500;
    this.range = this.maxRange;
    this.maxRangesPerTick = options.maxRangesPerTick ?? 20;
    this.maxCheckpoints = options.maxCheckpoints ?? 64;
    this.initialLookback = options.initialLookback ?? 1_000;
    this.addressesPerCall = options.addressesPerCall ?? 200;
  }

  status(): ChainSourceStatus {
    return {
      tipHeight: this.highestTip > 0 ? this.highestTip : null,
      errors: this.errors,
      lastError: this.failure ? String((this.failure as Error)?.message ?? this.failure) : null,
      lagBlocks: this.lag,
      tokens: Object.fromEntries(
        [...this.tokens.values()].map((t) => [
          t.currency,
          { contract: t.contract, status: t.status, reason: t.reason },
        ]),
      ),
    };
  }

  /** Whether live orders in `currency` are watched here: a token of this network, not DISABLED. */
  accepts(currency: string): boolean {
    return [...this.tokens.values()].some((t) => t.currency === currency && t.status !== 'DISABLED');
  }

  /** Reads the tip (and, once, checks the node's chain; and the tokens not yet or no longer enabled). */
  async refresh(): Promise<void> {
    this.tip = null;
    if (this.failure && (this.options.now ?? Date.now)() < this.retryAt) {
      // Still backing off: what is asked of it meanwhile fails with the last failure.
      return;
    }
    try {
      if (!this.chainVerified) {
        await this.verifyChain();
      }
      await this.verifyTokens();
      const tip = await this.rpc.blockNumber();
      if (tip < this.highestTip) {
        throw new ChainSourceError(`the tip went backwards, from ${this.highestTip} to ${tip}`);
      }
      this.highestTip = tip;
      this.tip = tip;
      this.options.onTip?.(tip);
    } catch (error) {
      this.fail(error);
    }
  }

  async received(network: string, watches: readonly ChainWatch[]): Promise<Map<string, ChainPayment[]>> {
    if (network !== this.options.network) {
      throw new ChainSourceError(`this source watches ${this.options.network}, not ${network}`);
    }
    const tip = this.tip;
    if (tip === null) {
      throw this.failure ?? new ChainSourceError(`${network} has not been refreshed`);
    }
    const addresses = [...new Set(watches.map((w) => w.address.toLowerCase()))];
    let transfers: TokenTransfer[];
    try {
      await this.scan(tip, addresses);
      transfers = addresses.length > 0 ? await this.store.transfersTo(network, addresses) : [];
    } catch (error) {
      // Only the node's failures count against it (its error count, its backoff): the scan also
      // reads and writes our own database, and a database outage is not the node's.
      if (error instanceof ChainSourceError) {
        this.fail(error);
      }
      throw error;
    }
    this.failure = null;
    this.failuresInRow = 0;
    const out = new Map<string, ChainPayment[]>();
    for (const watch of watches) {
      const address = watch.address.toLowerCase();
      out.set(
        watch.address,
        transfers
          .filter((t) => t.to === address && this.counted(t.contract) === watch.currency && t.blockNumber <= tip)
          .map((t) => ({
            txid: `${t.txHash}:${t.logIndex}`,
            amountBaseUnits: t.amount,
            confirmations: tip - t.blockNumber + 1,
          })),
      );
    }
    return out;
  }

  /** The currency a contract's transfers count in; null for a contract not watched or DISABLED. */
  private counted(contract: string): string | null {
    const token = this.tokens.get(contract);
    return token?.status === 'ENABLED' ? token.currency : null;
  }

  private fail(error: unknown): void {
    this.failure = error;
    this.errors++;
    this.failuresInRow++;
    this.retryAt = (this.options.now ?? Date.now)() + (this.options.backoffMs?.(this.failuresInRow) ?? 0);
  }

  private async verifyChain(): Promise<void> {
    const chainId = await this.rpc.chainId();
    if (chainId !== this.options.chainId) {
      throw new ChainSourceError(
        `the ${this.options.network} node is on chain ${chainId}, expected ${this.options.chainId}`,
      );
    }
    this.chainVerified = true;
  }

  /**
   * Checks each token not yet checked, and each disabled one whose backoff is over. Throws only
   * the node's own failures; a contract's failure disables its token and the others go on.
   */
  private async verifyTokens(): Promise<void> {
    const now = (this.options.now ?? Date.now)();
    for (const token of this.tokens.values()) {
      if (token.status === 'ENABLED' || (token.status === 'DISABLED' && now < token.retryAt)) {
        continue;
      }
      let decimals: number;
      try {
        decimals = await this.rpc.decimals(token.contract);
      } catch (error) {
        if (!(error instanceof ContractCallError)) {
          throw error;
        }
        this.disable(token, `${token.currency} at ${token.contract} ${error.reason}`, now);
        continue;
      }
      const expected = this.options.decimalsOf(token.currency);
      if (decimals !== expected) {
        this.disable(
          token,
          `${token.currency} at ${token.contract} has ${decimals} decimals, the catalogue ${expected}`,
          now,
        );
        continue;
      }
      const wasDisabled = token.status === 'DISABLED';
      token.status = 'ENABLED';
      token.reason = null;
      token.failuresInRow = 0;
      if (wasDisabled) {
        this.tokenChanged(token);
      }
    }
  }

  private disable(token: Token, reason: string, now: number): void {
    const changed = token.status !== 'DISABLED' || token.reason !== reason;
    token.status = 'DISABLED';
    token.reason = reason;
    token.failuresInRow++;
    token.retryAt = now + (this.options.backoffMs?.(token.failuresInRow) ?? 0);
    if (changed) {
      this.tokenChanged(token);
    }
  }

  private tokenChanged(token: Token): void {
    this.options.onTokenChange?.(token.currency, {
      contract: token.contract,
      status: token.status,
      reason: token.reason,
    });
  }

  /** Brings the network's scan up to `tip` (as far as one tick goes), first undoing what a reorg removed. */
  private async scan(tip: number, addresses: string[]): Promise<void> {
    const network = this.options.network;
    const stored = await this.store.cursor(network);
    let cursor: ScanCursor;
    if (stored) {
      cursor = stored;
    } else {
      const start = Math.max(0, tip - this.initialLookback);
      const hash = await this.blockHashOrFail(start);
      cursor = { block: start, hash, checkpoints: [{ block: start, hash }] };
      if (!(await this.store.advance(network, null, cursor, []))) {
        return;
      }
    }
    if ((await this.rpc.blockHash(cursor.block)) !== cursor.hash) {
      const fork = await this.forkPoint(cursor);
      this.options.onReorg?.(fork.block, cursor.block);
      if (!(await this.store.rewind(network, cursor, fork))) {
        return;
      }
      cursor = fork;
    }
    if (addresses.length === 0 && cursor.block < tip) {
      // No order is open on this network: nobody can have been paid up to the tip (read before
      // the orders were listed), so the scan moves there at once instead of reading its logs.
      const hash = await this.blockHashOrFail(tip);
      const next = {
        block: tip,
        hash,
        checkpoints: [{ block: tip, hash }, ...cursor.checkpoints].slice(0, this.maxCheckpoints),
      };
      if (await this.store.advance(network, cursor, next, [])) {
        cursor = next;
      }
    }
    for (let ranges = 0; ranges < this.maxRangesPerTick && cursor.block < tip; ranges++) {
      const from = cursor.block + 1;
      const to = Math.min(tip, cursor.block + this.range);
      const hash = await this.rpc.blockHash(to);
      if (hash === null) {
        break;
      }
      let found: TokenTransfer[];
      try {
        found = await this.logs(addresses, from, to);
      } catch (error) {
        // Nodes cap what one eth_getLogs may cover (blocks, results, bytes) and say so in many
        // ways: a refused range is tried again at half the size, down to a single block.
        if (error instanceof ChainSourceError && this.range > 1 && to > from) {
          this.range = Math.max(1, Math.floor((to - from + 1) / 2));
          continue;
        }
        throw error;
      }
      // The logs must come from the chain between the two ends as they were read: if either end
      // changed meanwhile, a reorg is under way, and the next tick starts by undoing it.
      const stable =
        found.every((t) => t.blockNumber !== to || t.blockHash === hash) &&
        (await this.rpc.blockHash(to)) === hash &&
        (await this.rpc.blockHash(cursor.block)) === cursor.hash;
      if (!stable) {
        break;
      }
      const next = {
        block: to,
        hash,
        checkpoints: [{ block: to, hash }, ...cursor.checkpoints].slice(0, this.maxCheckpoints),
      };
      if (!(await this.store.advance(network, cursor, next, found))) {
        break;
      }
      cursor = next;
    }
    this.lag = Math.max(0, tip - cursor.block);
  }

  /**
   * Transfer logs to `addresses` in blocks `from`..`to`, a batch of addresses per call. A DISABLED
   * token's contract is still asked for: its transfers are recorded but not counted, so that if
   * its check passes later, what was paid in it meanwhile is not lost behind the scan.
   */
  private async logs(addresses: string[], from: number, to: number): Promise<TokenTransfer[]> {
    const found: TokenTransfer[] = [];
    for (let i = 0; i < addresses.length; i += this.addressesPerCall) {
      found.push(
        ...(await this.rpc.transfers(this.contracts, addresses.slice(i, i + this.addressesPerCall), from, to)),
      );
    }
    return found;
  }

  /** The newest scan end still on the node's best chain; past the oldest, the block before it. */
  private async forkPoint(cursor: ScanCursor): Promise<ScanCursor> {
    const checkpoints = cursor.checkpoints;
    for (let i = 0; i < checkpoints.length; i++) {
      const cp = checkpoints[i] as { block: number; hash: string };
      if ((await this.rpc.blockHash(cp.block)) === cp.hash) {
        return { block: cp.block, hash: cp.hash, checkpoints: checkpoints.slice(i) };
      }
    }
    const oldest = checkpoints.at(-1)?.block ?? cursor.block;
    const block = Math.max(0, oldest - this.maxRange);
    const hash = await this.blockHashOrFail(block);
    return { block, hash, checkpoints: [{ block, hash }] };
  }

  private async blockHashOrFail(block: number): Promise<string> {
    const hash = await this.rpc.blockHash(block);
    if (hash === null) {
      throw new ChainSourceError(`the ${this.options.network} node has no block ${block}`);
    }
    return hash;
  }
}
