import assert from 'node:assert/strict';
import { test } from 'node:test';
import { id } from 'ethers';
import { startEvmNode } from '../../support/evm-node.ts';

// The EVM test harness (test/support/evm-node.ts) against what a JSON-RPC client of its node sees.
// The expectations are computed here, from the ERC-20 standard, not taken from the harness.

const TRANSFER_TOPIC = id('Transfer(address,address,uint256)');
const selector = (signature: string) => id(signature).slice(0, 10);
const word = (hex: string) => `0x${hex.replace(/^0x/, '').padStart(64, '0')}`;

type Log = { address: string; topics: string[]; data: string; blockNumber: string; transactionHash: string };
type Block = { hash: string; number: string };

test('a deployed token answers decimals() with the decimals it was deployed with', async (t) => {
  const node = await startEvmNode(t);
  const token = await node.deployToken({ decimals: 6 });
  assert.match(token, /^0x[0-9a-f]{40}$/);
  assert.equal(node.chainId, 1337);
  assert.equal(Number(await node.rpc<string>('eth_chainId')), 1337);
  const decimals = await node.rpc<string>('eth_call', [{ to: token, data: selector('decimals()') }, 'latest']);
  assert.equal(BigInt(decimals), 6n);
});

test('a transfer is mined in its own block and leaves a Transfer log found by the recipient topic', async (t) => {
  const node = await startEvmNode(t);
  const token = await node.deployToken();
  const [from, to] = [node.accounts[0], node.accounts[1]];
  assert.ok(from && to);
  const tipBefore = await node.blockNumber();

  const { txHash, blockNumber } = await node.transfer(token, to, 1_250_000n);
  assert.equal(blockNumber, tipBefore + 1);
  assert.equal(await node.blockNumber(), blockNumber);

  const logs = await node.rpc<Log[]>('eth_getLogs', [
    { address: token, fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER_TOPIC, null, word(to)] },
  ]);
  assert.equal(logs.length, 1);
  const [log] = logs;
  assert.ok(log);
  assert.equal(log.address.toLowerCase(), token);
  assert.equal(log.transactionHash, txHash);
  assert.equal(Number(log.blockNumber), blockNumber);
  assert.deepEqual(log.topics, [TRANSFER_TOPIC, word(from), word(to)]);
  assert.equal(BigInt(log.data), 1_250_000n);

  const balance = await node.rpc<string>('eth_call', [
    { to: token, data: `${selector('balanceOf(address)')}${word(to).slice(2)}` },
    'latest',
  ]);
  assert.equal(BigInt(balance), 1_250_000n);
});

test('mining 3 blocks advances the tip by 3', async (t) => {
  const node = await startEvmNode(t);
  const tip = await node.blockNumber();
  assert.equal(await node.mine(3), tip + 3);
  assert.equal(await node.blockNumber(), tip + 3);
});

test('reverting to a snapshot drops a transfer, and the blocks mined after replace the one that held it', async (t) => {
  const node = await startEvmNode(t);
  const token = await node.deployToken();
  const to = node.accounts[2];
  assert.ok(to);
  const tipBefore = await node.blockNumber();

  const snapshot = await node.snapshot();
  const transfer = await node.transfer(token, to, 42n);
  const replaced = await node.rpc<Block>('eth_getBlockByNumber', [`0x${transfer.blockNumber.toString(16)}`, false]);

  await node.revert(snapshot);
  assert.equal(await node.blockNumber(), tipBefore);
  assert.equal(await node.mine(2), tipBefore + 2);

  const logs = await node.rpc<Log[]>('eth_getLogs', [
    { address: token, fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER_TOPIC, null, word(to)] },
  ]);
  assert.deepEqual(logs, []);
  assert.equal(await node.rpc('eth_getTransactionReceipt', [transfer.txHash]), null);
  const now = await node.rpc<Block>('eth_getBlockByNumber', [`0x${transfer.blockNumber.toString(16)}`, false]);
  assert.equal(Number(now.number), transfer.blockNumber);
  assert.notEqual(now.hash, replaced.hash);
});
