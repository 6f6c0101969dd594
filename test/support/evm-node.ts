import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { Interface, type InterfaceAbi } from 'ethers';
import ganache from 'ganache';

/**
 * A real EVM chain on loopback (ganache, in this process) with a real ERC-20 compiled from
 * OpenZeppelin's sources: the outside world that EVM stablecoin payments come from. Everything
 * the harness does goes through the node's JSON-RPC over HTTP, the same way the service talks to
 * a node, so a test sees exactly what a client of `url` would see.
 */
export type EvmNode = {
  url: string;
  chainId: number;
  /** Funded and unlocked, so `eth_sendTransaction` can send from them. Lowercase 0x-hex. */
  accounts: string[];
  /** Raw JSON-RPC; throws on a JSON-RPC error. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Deploys a token that has minted a large supply to accounts[0]; returns its lowercase address. */
  deployToken(options?: { decimals?: number; symbol?: string; name?: string }): Promise<string>;
  /** ERC-20 transfer(to, amount) sent from `from` (accounts[0] by default), mined in a block of its own. */
  transfer(
    token: string,
    to: string,
    amountBaseUnits: bigint,
    from?: string,
  ): Promise<{ txHash: string; blockNumber: number }>;
  /** Mines `blocks` empty blocks (1 by default); returns the new tip. */
  mine(blocks?: number): Promise<number>;
  blockNumber(): Promise<number>;
  /** Ganache's snapshots are single-use: reverting to one also discards every snapshot taken after it. */
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  close(): Promise<void>;
};

const CHAIN_ID = 1337;

/** Large enough that no test runs out, at any decimals up to 18, yet far below 2^256. */
const TOKEN_SUPPLY = 10n ** 40n;

// Ganache defaults a transaction's gas to 90,000, which a deployment far exceeds; explicit limits
// avoid an eth_estimateGas round trip per transaction.
const DEPLOY_GAS = 3_000_000;
const TRANSFER_GAS = 200_000;

const TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

contract CobroTestToken is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply) ERC20(name_, symbol_) {
        _decimals = decimals_;
        _mint(msg.sender, supply);
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }
}
`;

type CompiledToken = { abi: Interface; bytecode: string };

type SolcOutput = {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: InterfaceAbi; evm: { bytecode: { object: string } } }>>;
};

type Solc = {
  compile(
    input: string,
    callbacks: { import: (importPath: string) => { contents: string } | { error: string } },
  ): string;
};

type Receipt = { status: string; blockNumber: string; transactionHash: string; contractAddress: string | null };

const require = createRequire(import.meta.url);

let compiledToken: Promise<CompiledToken> | undefined;

/** Compiled once per process: loading solc-js and compiling OpenZeppelin's ERC20 take about 0.8 s together. */
function tokenArtifact(): Promise<CompiledToken> {
  compiledToken ??= Promise.resolve().then(compileToken);
  return compiledToken;
}

function compileToken(): CompiledToken {
  // solc-js ships no type declarations; loading it through require keeps the harness to one file
  // instead of adding an ambient module declaration, and the shape used here is typed just below.
  const solc = require('solc') as Solc;
  const openZeppelinPrefix = '@openzeppelin/contracts/';
  const openZeppelinDir = path.dirname(require.resolve('@openzeppelin/contracts/package.json'));
  const input = {
    language: 'Solidity',
    sources: { 'CobroTestToken.sol': { content: TOKEN_SOURCE } },
    settings: {
      // Ganache 7.9 stops at Shanghai; solc 0.8.28 defaults to Cancun, whose MCOPY it rejects.
      evmVersion: 'shanghai',
      outputSelection: { 'CobroTestToken.sol': { CobroTestToken: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (importPath) =>
        importPath.startsWith(openZeppelinPrefix)
          ? { contents: readFileSync(path.join(openZeppelinDir, importPath.slice(openZeppelinPrefix.length)), 'utf8') }
          : { error: `only ${openZeppelinPrefix}… imports are available to the test token, not ${importPath}` },
    }),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`the test token does not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }
  const contract = output.contracts?.['CobroTestToken.sol']?.CobroTestToken;
  if (!contract?.evm.bytecode.object) {
    throw new Error('solc produced no bytecode for the test token');
  }
  return { abi: new Interface(contract.abi), bytecode: contract.evm.bytecode.object };
}

const toQuantity = (n: number | bigint) => `0x${n.toString(16)}`;

export async function startEvmNode(t?: TestContext): Promise<EvmNode> {
  const server = ganache.server({
    // Without quiet, ganache logs every RPC call to the console, which buries the test output.
    logging: { quiet: true },
    chain: { chainId: CHAIN_ID },
    // Eager: eth_sendTransaction answers only once its block is mined, so the receipt is there at once.
    miner: { instamine: 'eager' },
    wallet: { totalAccounts: 3 },
  });
  await server.listen(0);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= server.close();
    return closing;
  };
  t?.after(close);

  const url = `http://127.0.0.1:${server.address().port}`;
  let nextId = 1;

  async function rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    if (!response.ok) {
      throw new Error(`${method}: HTTP ${response.status} from the EVM node: ${await response.text()}`);
    }
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error) {
      throw new Error(`${method}: JSON-RPC error ${body.error.code}: ${body.error.message}`);
    }
    return body.result as T;
  }

  /** Sends from an unlocked account and insists the transaction succeeded. */
  async function send(what: string, tx: { from: string; to?: string; data: string; gas: number }): Promise<Receipt> {
    const txHash = await rpc<string>('eth_sendTransaction', [{ ...tx, gas: toQuantity(tx.gas) }]);
    const receipt = await rpc<Receipt | null>('eth_getTransactionReceipt', [txHash]);
    if (!receipt) {
      throw new Error(`${what}: transaction ${txHash} has no receipt, though the node mines eagerly`);
    }
    if (receipt.status !== '0x1') {
      throw new Error(`${what}: transaction ${txHash} reverted (receipt status ${receipt.status})`);
    }
    return receipt;
  }

  try {
    const accounts = (await rpc<string[]>('eth_accounts')).map((a) => a.toLowerCase());
    const deployer = accounts[0];
    if (!deployer) {
      throw new Error('the EVM node has no accounts');
    }
    const blockNumber = async () => Number(await rpc<string>('eth_blockNumber'));

    return {
      url,
      chainId: CHAIN_ID,
      accounts,
      rpc,
      async deployToken({ decimals = 6, symbol = 'USDC', name = `Test ${symbol}` } = {}) {
        const token = await tokenArtifact();
        const args = token.abi.encodeDeploy([name, symbol, decimals, TOKEN_SUPPLY]);
        const receipt = await send(`deploying ${symbol}`, {
          from: deployer,
          data: `0x${token.bytecode}${args.slice(2)}`,
          gas: DEPLOY_GAS,
        });
        if (!receipt.contractAddress) {
          throw new Error(`deploying ${symbol}: the receipt has no contract address`);
        }
        return receipt.contractAddress.toLowerCase();
      },
      async transfer(token, to, amountBaseUnits, from = deployer) {
        const { abi } = await tokenArtifact();
        const receipt = await send(`transferring ${amountBaseUnits} base units of ${token} to ${to}`, {
          from,
          to: token,
          data: abi.encodeFunctionData('transfer', [to, amountBaseUnits]),
          gas: TRANSFER_GAS,
        });
        return { txHash: receipt.transactionHash, blockNumber: Number(receipt.blockNumber) };
      },
      async mine(blocks = 1) {
        if (!Number.isInteger(blocks) || blocks < 0) {
          throw new RangeError(`mine(${blocks}): blocks must be a whole number, 0 or more`);
        }
        await rpc('evm_mine', [{ blocks }]);
        return blockNumber();
      },
      blockNumber,
      snapshot: () => rpc<string>('evm_snapshot'),
      async revert(id) {
        if (!(await rpc<boolean>('evm_revert', [id]))) {
          throw new Error(`evm_revert(${id}): no such snapshot (each one can be reverted to only once)`);
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The operator's settings that make `token` on `node` live USDC on Base, closing orders at `confirmations`. */
export function baseUsdcSettings(node: EvmNode, token: string, confirmations: number): Record<string, string> {
  return {
    EVM_RPC_URL_BASE: node.url,
    EVM_CHAIN_ID_BASE: String(node.chainId),
    EVM_TOKEN_BASE_USDC: token,
    BASE_CONFIRMATIONS: String(confirmations),
  };
}
