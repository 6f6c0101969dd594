import type { TokenTransfer } from '../../domain/payment-methods/chain-scan.ts';
/**
 * A client of an EVM node's JSON-RPC API over HTTP(S) (geth, erigon, reth, a hosted provider):
 * what Cobro needs to see ERC-20 payments without a node of its own. The methods are those of
 * https://ethereum.org/en/developers/docs/apis/json-rpc/: `eth_chainId`, `eth_blockNumber`,
 * `eth_getBlockByNumber` (for a block's hash), `eth_getLogs` and `eth_call` (for `decimals()`).
 *
 * The node is the operator's choice (EVM_RPC_URL_*), never a merchant's, but it is still the
 * outside world: every call has a timeout, every answer a size cap and a shape check.
 */

import { ChainSourceError, readCapped } from './chain-http.ts';

/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** The selector of `decimals()`. */
const DECIMALS_CALL = '0x313ce567';

const HEX_QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/i;
const HASH = /^0x[0-9a-f]{64}$/i;
const ADDRESS = /^0x[0-9a-f]{40}$/i;
const WORD = /^0x[0-9a-f]{64}$/i;
const HEX_DATA = /^0x([0-9a-f]{2})*$/i;

/**
 * A contract call the node answered, but not as the contract should: it reverted, or answered
 * nothing (no contract at that address) or no number. The contract's failure, not the node's —
 * the node itself answered — so it holds up only what depends on that contract.
 */
export class ContractCallError extends ChainSourceError {
  override name = 'ContractCallError';

  constructor(
    readonly contract: string,
    /** What went wrong, without the contract: "did not answer decimals(): the call reverted (…)". */
    readonly reason: string,
  ) {
    super(`${contract} ${reason}`);
  }
}

/** The node answered a JSON-RPC error object: the call reached it, and it refused or failed it. */
class JsonRpcErrorAnswer extends ChainSourceError {
  override name = 'JsonRpcErrorAnswer';

  constructor(
    method: string,
    readonly code: unknown,
    readonly detail: string,
  ) {
    super(`${method} failed: ${detail}`);
  }
}

/**
 * Whether an eth_call's error answer says the EVM reverted the call (the contract's doing) rather
 * than that the node failed (overloaded, rate limited, not synced). Nodes say it differently:
 * geth, erigon, reth and besu "execution reverted" (geth's code 3 when the revert carries data),
 * ganache "VM Exception while processing transaction: revert", nethermind "VM execution error".
 */
function isRevert(error: JsonRpcErrorAnswer): boolean {
  return error.code === 3 || /revert|VM execution error|invalid opcode/i.test(error.detail);
}

export type EvmRpcOptions = {
  url: string;
  /** Per call. */
  timeoutMs?: number;
  /** Largest answer read, in bytes. */
  maxResponseBytes?: number;
  fetch?: typeof fetch;
};

export class EvmRpcClient {
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly fetchImpl: typeof fetch;
  private nextId = 1;

  constructor(options: EvmRpcOptions) {
    this.url = options.url;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 4 * 1024 * 1024;
    this.fetchImpl = options.fetch ?? fetch;
  }

  async chainId(): Promise<number> {
    return quantity(await this.call('eth_chainId', []), 'chain id');
  }

  async blockNumber(): Promise<number> {
    return quantity(await this.call('eth_blockNumber', []), 'block number');
  }

  /** The hash of the block at `height` on the node's best chain; null if it has none there (yet). */
  async blockHash(height: number): Promise<string | null> {
    const block = await this.call('eth_getBlockByNumber', [hex(height), false]);
    if (block === null) {
      return null;
    }
    const b = block as { hash?: unknown; number?: unknown };
    if (typeof b?.hash !== 'string' || !HASH.test(b.hash) || quantity(b.number, 'block number') !== height) {
      throw new ChainSourceError(`block ${height} has no valid hash or number`);
    }
    return b.hash.toLowerCase();
  }

  /**
   * The decimals an ERC-20 contract declares. A ContractCallError when the node answered but the
   * contract did not (a revert, no code at the address, no number); any other ChainSourceError
   * is the node's failure.
   */
  async decimals(contract: string): Promise<number> {
    let result: unknown;
    try {
      result = await this.call('eth_call', [{ to: contract, data: DECIMALS_CALL }, 'latest']);
    } catch (error) {
      if (error instanceof JsonRpcErrorAnswer && isRevert(error)) {
        throw new ContractCallError(contract, `did not answer decimals(): the call reverted (${error.detail})`);
      }
      throw error;
    }
    // eth_call answers the call's return data: anything but hex bytes is the node talking nonsense.
    if (typeof result !== 'string' || !HEX_DATA.test(result)) {
      throw new ChainSourceError(`eth_call answered no return data: ${JSON.stringify(result)?.slice(0, 40)}`);
    }
    if (result === '0x') {
      throw new ContractCallError(
        contract,
        'did not answer decimals(): the call returned nothing (no contract there?)',
      );
    }
    if (!WORD.test(result)) {
      throw new ContractCallError(contract, 'did not answer decimals() with a number');
    }
    const value = BigInt(result);
    if (value > 255n) {
      throw new ContractCallError(contract, `answered ${value} to decimals(), not a number of decimals`);
    }
    return Number(value);
  }

  /** `Transfer` logs of `contracts` to any of `recipients`, in blocks `from`..`to` (inclusive). */
  async transfers(contracts: string[], recipients: string[], from: number, to: number): Promise<TokenTransfer[]> {
    const logs = await this.call('eth_getLogs', [
      {
        fromBlock: hex(from),
        toBlock: hex(to),
        address: contracts,
        topics: [TRANSFER_TOPIC, null, recipients.map(addressTopic)],
      },
    ]);
    if (!Array.isArray(logs)) {
      throw new ChainSourceError('eth_getLogs did not answer a list');
    }
    const wanted = new Set(contracts.map((c) => c.toLowerCase()));
    const payees = new Set(recipients.map((r) => r.toLowerCase()));
    const out: TokenTransfer[] = [];
    for (const raw of logs as unknown[]) {
      const transfer = parseTransferLog(raw);
      // A node that ignores the filter must not make a payment appear.
      if (
        transfer.blockNumber < from ||
        transfer.blockNumber > to ||
        !wanted.has(transfer.contract) ||
        !payees.has(transfer.to)
      ) {
        throw new ChainSourceError(`eth_getLogs answered a log outside the filter (${transfer.txHash})`);
      }
      out.push(transfer);
    }
    return out;
  }

  private async call(method: string, params: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    let res: Response;
    try {
      res = await this.fetchImpl(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new ChainSourceError(`${method}: ${(error as Error).message}`);
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      throw new ChainSourceError(`${method} answered HTTP ${res.status}`);
    }
    const text = await readCapped(res, this.maxResponseBytes, method);
    let body: { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
    try {
      body = JSON.parse(text);
    } catch {
      throw new ChainSourceError(`${method} answer is not JSON`);
    }
    if (body?.error) {
      const message = typeof body.error.message === 'string' ? body.error.message.slice(0, 200) : 'no message';
      throw new JsonRpcErrorAnswer(method, body.error.code, message);
    }
    if (body?.id !== id || !('result' in body)) {
      throw new ChainSourceError(`${method} answer is not a JSON-RPC answer to it`);
    }
    return body.result;
  }
}

function hex(n: number): string {
  return `0x${n.toString(16)}`;
}

function quantity(value: unknown, what: string): number {
  if (typeof value !== 'string' || !HEX_QUANTITY.test(value)) {
    throw new ChainSourceError(`${what} is not a hex quantity: ${JSON.stringify(value)?.slice(0, 40)}`);
  }
  const n = Number.parseInt(value, 16);
  if (!Number.isSafeInteger(n)) {
    throw new ChainSourceError(`${what} is out of range: ${value.slice(0, 40)}`);
  }
  return n;
}

/** An address as a log topic: 32 bytes, left-padded. */
function addressTopic(address: string): string {
  return `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
}

function parseTransferLog(raw: unknown): TokenTransfer {
  const log = raw as {
    address?: unknown;
    topics?: unknown;
    data?: unknown;
    transactionHash?: unknown;
    logIndex?: unknown;
    blockNumber?: unknown;
    blockHash?: unknown;
    removed?: unknown;
  };
  const topics = log?.topics;
  if (
    typeof log?.address !== 'string' ||
    !ADDRESS.test(log.address) ||
    !Array.isArray(topics) ||
    topics.length !== 3 ||
    !topics.every((t) => typeof t === 'string' && WORD.test(t)) ||
    (topics[0] as string).toLowerCase() !== TRANSFER_TOPIC ||
    typeof log.data !== 'string' ||
    !WORD.test(log.data) ||
    typeof log.transactionHash !== 'string' ||
    !HASH.test(log.transactionHash) ||
    typeof log.blockHash !== 'string' ||
    !HASH.test(log.blockHash)
  ) {
    throw new ChainSourceError('eth_getLogs answered a log that is not an ERC-20 Transfer');
  }
  if (log.removed === true) {
    throw new ChainSourceError(`eth_getLogs answered a removed log (${log.transactionHash})`);
  }
  const toWord = (topics[2] as string).toLowerCase();
  if (!/^0x0{24}/.test(toWord)) {
    throw new ChainSourceError(`a Transfer log's recipient is not an address (${log.transactionHash})`);
  }
  return {
    contract: log.address.toLowerCase(),
    to: `0x${toWord.slice(26)}`,
    amount: BigInt(log.data),
    txHash: log.transactionHash.toLowerCase(),
    logIndex: quantity(log.logIndex, 'log index'),
    blockNumber: quantity(log.blockNumber, 'block number'),
    blockHash: log.blockHash.toLowerCase(),
  };
}
