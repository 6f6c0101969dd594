/**
 * A client of the Esplora REST API (Blockstream's esplora, electrs, mempool.space): what Cobro
 * needs to watch Bitcoin addresses without running a node of its own. The API is described in
 * https://github.com/Blockstream/esplora/blob/master/API.md; the parts used here:
 *
 * - `GET /blocks/tip/height`: the height of the best block, as text;
 * - `GET /address/:address/txs`: the address's mempool transactions (up to 50) and its newest
 *   confirmed ones (up to 25), newest first;
 * - `GET /address/:address/txs/chain/:last_seen_txid`: the next 25 confirmed ones.
 *
 * The server is the operator's choice (BITCOIN_ESPLORA_URL), never a merchant's, but it is still
 * the outside world: every call has a timeout, every answer a size cap and a shape check, and a
 * misbehaving server makes a call fail — it never makes a payment appear.
 */

import { ChainSourceError, readCapped } from './chain-http.ts';

export { ChainSourceError };

export type EsploraOptions = {
  /** Base URL, e.g. `https://blockstream.info/api` or a self-hosted electrs. */
  baseUrl: string;
  /** Per call. */
  timeoutMs?: number;
  /** Largest answer read, in bytes. */
  maxResponseBytes?: number;
  /** Confirmed pages of 25 read per address at most (an address with more is not a checkout's). */
  maxPages?: number;
  fetch?: typeof fetch;
};

/** One transaction as it pays an address: the sum of its outputs to it. */
export type AddressPayment = {
  txid: string;
  amountSats: bigint;
  /** Null while in the mempool. */
  blockHeight: number | null;
  blockHash: string | null;
};

const TXID = /^[0-9a-f]{64}$/;
const CONFIRMED_PAGE = 25;

export class EsploraClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly maxPages: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: EsploraOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 2 * 1024 * 1024;
    this.maxPages = options.maxPages ?? 40;
    this.fetchImpl = options.fetch ?? fetch;
  }

  async tipHeight(): Promise<number> {
    const text = (await this.get('/blocks/tip/height')).trim();
    const height = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(height)) {
      throw new ChainSourceError(`tip height is not a number: ${JSON.stringify(text.slice(0, 40))}`);
    }
    return height;
  }

  /** Every transaction paying `address`, mempool and confirmed, each once. */
  async payments(address: string): Promise<AddressPayment[]> {
    const path = `/address/${encodeURIComponent(address)}/txs`;
    const seen = new Map<string, AddressPayment>();
    let page = parseTxs(await this.get(path), address);
    for (let pages = 0; ; pages++) {
      for (const p of page.payments) {
        seen.set(p.txid, p);
      }
      // Confirmed transactions come 25 to a page; a full page may have a next one.
      if (page.confirmedTxids.length < CONFIRMED_PAGE) {
        break;
      }
      if (pages + 1 >= this.maxPages) {
        throw new ChainSourceError(`more than ${this.maxPages * CONFIRMED_PAGE} transactions to ${address}`);
      }
      const last = page.confirmedTxids.at(-1) as string;
      page = parseTxs(await this.get(`${path}/chain/${last}`), address);
    }
    return [...seen.values()];
  }

  private async get(path: string): Promise<string> {
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.baseUrl}${path}`, {
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new ChainSourceError(`GET ${path}: ${(error as Error).message}`);
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      throw new ChainSourceError(`GET ${path} answered ${res.status}`);
    }
    return readCapped(res, this.maxResponseBytes, path);
  }
}

type ParsedPage = { payments: AddressPayment[]; confirmedTxids: string[] };

/** A page of `/address/:address/txs…`, checked member by member; what pays `address`, and the confirmed ids in order. */
function parseTxs(text: string, address: string): ParsedPage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ChainSourceError('transactions answer is not JSON');
  }
  if (!Array.isArray(value)) {
    throw new ChainSourceError('transactions answer is not a list');
  }
  const payments: AddressPayment[] = [];
  const confirmedTxids: string[] = [];
  for (const tx of value as unknown[]) {
    const t = tx as { txid?: unknown; vout?: unknown; status?: unknown };
    if (typeof t?.txid !== 'string' || !TXID.test(t.txid) || !Array.isArray(t.vout)) {
      throw new ChainSourceError('a transaction has no valid txid or outputs');
    }
    const status = t.status as { confirmed?: unknown; block_height?: unknown; block_hash?: unknown } | undefined;
    if (typeof status?.confirmed !== 'boolean') {
      throw new ChainSourceError(`transaction ${t.txid} has no status`);
    }
    let blockHeight: number | null = null;
    let blockHash: string | null = null;
    if (status.confirmed) {
      if (!Number.isSafeInteger(status.block_height) || (status.block_height as number) < 0) {
        throw new ChainSourceError(`confirmed transaction ${t.txid} has no block height`);
      }
      if (typeof status.block_hash !== 'string' || !TXID.test(status.block_hash)) {
        throw new ChainSourceError(`confirmed transaction ${t.txid} has no block hash`);
      }
      blockHeight = status.block_height as number;
      blockHash = status.block_hash;
      confirmedTxids.push(t.txid);
    }
    let amountSats = 0n;
    for (const out of t.vout as unknown[]) {
      const o = out as { scriptpubkey_address?: unknown; value?: unknown };
      if (o?.scriptpubkey_address !== address) {
        continue;
      }
      if (!Number.isSafeInteger(o.value) || (o.value as number) < 0) {
        throw new ChainSourceError(`transaction ${t.txid} has an output with no valid value`);
      }
      amountSats += BigInt(o.value as number);
    }
    if (amountSats > 0n) {
      payments.push({ txid: t.txid, amountSats, blockHeight, blockHash });
    }
  }
  return { payments, confirmedTxids };
}
