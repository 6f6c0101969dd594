import type {
  ChainPayment,
  ChainSourceStatus,
  ChainWatch,
  ChainWatcher,
} from '../../domain/payment-methods/payment-provider.ts';
import { ChainSourceError } from './chain-http.ts';
import type { EsploraClient } from './esplora.ts';

type Received = ChainPayment[];

/** Addresses remembered between polls at most (older answers are dropped first). */
const MAX_CACHED_ADDRESSES = 10_000;

/**
 * Bitcoin through an Esplora API: what an address received, each transaction with its
 * confirmations counted from the tip. Nothing is kept between polls but the answers of the
 * current poll window, so a transaction a reorg removed, or sent back to the mempool, simply
 * stops counting (an order never closes before its required confirmations). A tip lower than
 * one already seen is refused as an error: the server is behind or wrong, and its answers are
 * not trusted until it is back.
 */
export class EsploraWatcher implements ChainWatcher {
  private highestTip = 0;
  private tip: { height: number; at: number } | null = null;
  private failure: { at: number; error: unknown } | null = null;
  private errors = 0;
  private readonly answers = new Map<string, { at: number; received: Received }>();

  constructor(
    private readonly client: EsploraClient,
    private readonly options: {
      now: () => number;
      /** An address is asked about again after this long; the tip too. */
      pollMs: number;
      onTip?: (height: number) => void;
    },
  ) {}

  /** Each address asked in turn (Esplora answers per address); the first failure fails them all. */
  async received(network: string, watches: readonly ChainWatch[]): Promise<Map<string, Received>> {
    const out = new Map<string, Received>();
    for (const watch of watches) {
      out.set(watch.address, await this.receivedAt(network, watch.address));
    }
    return out;
  }

  async receivedAt(network: string, address: string): Promise<Received> {
    if (network !== 'bitcoin') {
      throw new ChainSourceError(`the Esplora source watches bitcoin, not ${network}`);
    }
    const now = this.options.now();
    const known = this.answers.get(address);
    if (known && now - known.at < this.options.pollMs) {
      return known.received;
    }
    // A failing source is asked again after a poll interval, not on every order of every tick.
    if (this.failure && now - this.failure.at < this.options.pollMs) {
      throw this.failure.error;
    }
    let tip: number;
    let payments: Awaited<ReturnType<EsploraClient['payments']>>;
    try {
      tip = await this.tipHeight(now);
      payments = await this.client.payments(address);
    } catch (error) {
      this.failure = { at: now, error };
      this.errors++;
      throw error;
    }
    this.failure = null;
    const received = payments.map((p) => ({
      txid: p.txid,
      amountBaseUnits: p.amountSats,
      confirmations: p.blockHeight === null || p.blockHeight > tip ? 0 : tip - p.blockHeight + 1,
    }));
    this.answers.delete(address);
    this.answers.set(address, { at: now, received });
    if (this.answers.size > MAX_CACHED_ADDRESSES) {
      const oldest = this.answers.keys().next().value;
      if (oldest !== undefined) {
        this.answers.delete(oldest);
      }
    }
    return received;
  }

  status(): ChainSourceStatus {
    return {
      tipHeight: this.highestTip > 0 ? this.highestTip : null,
      errors: this.errors,
      lastError: this.failure ? String((this.failure.error as Error)?.message ?? this.failure.error) : null,
      lagBlocks: null,
    };
  }

  /** Bitcoin's own coin is all an Esplora source sees. */
  accepts(currency: string): boolean {
    return currency === 'BTC';
  }

  private async tipHeight(now: number): Promise<number> {
    if (this.tip && now - this.tip.at < this.options.pollMs) {
      return this.tip.height;
    }
    const height = await this.client.tipHeight();
    if (height < this.highestTip) {
      throw new ChainSourceError(`the tip went backwards, from ${this.highestTip} to ${height}`);
    }
    this.highestTip = height;
    this.tip = { height, at: now };
    this.options.onTip?.(height);
    return height;
  }
}

/** A live chain source: what it received, how it is doing, and which currencies it counts. */
export type LiveChainSource = ChainWatcher & {
  status(): ChainSourceStatus;
  /** False for a currency it does not watch, or whose token it has disabled. */
  accepts(currency: string): boolean;
};

/**
 * Live mode's chains: a watcher per network the operator configured a source for. A network
 * with none is not watched, nor a token its source disabled, and no live order is opened in
 * either (CryptoOnchainProvider asks).
 */
export class LiveChains implements ChainWatcher {
  constructor(private readonly byNetwork: Readonly<Partial<Record<string, LiveChainSource>>>) {}

  /** Each configured source's status, by network. */
  status(): Record<string, ChainSourceStatus> {
    const out: Record<string, ChainSourceStatus> = {};
    for (const [network, watcher] of Object.entries(this.byNetwork)) {
      if (watcher) {
        out[network] = watcher.status();
      }
    }
    return out;
  }

  networks(): string[] {
    return Object.keys(this.byNetwork).filter((n) => this.byNetwork[n] !== undefined);
  }

  /**
   * Whether live mode watches `network` (a source is configured for it) and, given a currency,
   * counts that currency's payments there (not a token the source disabled).
   */
  watches(network: string, currency?: string): boolean {
    const source = this.byNetwork[network];
    return source !== undefined && (currency === undefined || source.accepts(currency));
  }

  async refresh(): Promise<void> {
    // Each source keeps its own failure (and reports it when asked what it received): one
    // network's outage does not hold up the others.
    await Promise.all(Object.values(this.byNetwork).map((w) => w?.refresh?.().catch(() => undefined)));
  }

  received(network: string, watches: readonly ChainWatch[]): Promise<Map<string, Received>> {
    const watcher = this.byNetwork[network];
    if (!watcher) {
      return Promise.reject(new ChainSourceError(`no chain source is configured for ${network}`));
    }
    return watcher.received(network, watches);
  }
}
