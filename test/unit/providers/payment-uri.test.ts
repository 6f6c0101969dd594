import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  bip21Uri,
  eip681Erc20TransferUri,
  formatBtcAmount,
} from '../../../src/providers/crypto-onchain/payment-uri.ts';

// Examples from BIP21, github.com/bitcoin/bips/blob/master/bip-0021.mediawiki ("Examples"):
//   bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=20.3&label=Luke-Jr
//   bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=50&label=Luke-Jr&message=Donation%20for%20project%20xyz
const BIP21_ADDRESS = '175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W';

describe('bip21Uri', () => {
  test('reproduces the BIP21 "Request 20.30 BTC to Luke-Jr" example', () => {
    assert.equal(
      bip21Uri({ address: BIP21_ADDRESS, amountSats: 2_030_000_000n, label: 'Luke-Jr' }),
      'bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=20.3&label=Luke-Jr',
    );
  });

  test('writes a whole 50 BTC as "50" like the BIP21 donation example', () => {
    assert.equal(
      bip21Uri({ address: BIP21_ADDRESS, amountSats: 5_000_000_000n, label: 'Luke-Jr' }),
      'bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=50&label=Luke-Jr',
    );
  });

  test('percent-encodes labels the way BIP21 encodes spaces', () => {
    assert.equal(
      bip21Uri({ address: BIP21_ADDRESS, amountSats: 1n, label: 'Donation for project xyz' }),
      'bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=0.00000001&label=Donation%20for%20project%20xyz',
    );
    assert.ok(bip21Uri({ address: BIP21_ADDRESS, amountSats: 1n, label: 'A&B=C' }).endsWith('label=A%26B%3DC'));
  });

  test('accepts bech32 addresses and omits an empty label', () => {
    assert.equal(
      bip21Uri({ address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', amountSats: 123_456n }),
      'bitcoin:bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu?amount=0.00123456',
    );
    assert.ok(!bip21Uri({ address: BIP21_ADDRESS, amountSats: 1n, label: '' }).includes('label'));
  });

  test('rejects zero, negative and beyond-supply amounts and malformed addresses', () => {
    assert.throws(() => bip21Uri({ address: BIP21_ADDRESS, amountSats: 0n }), RangeError);
    assert.throws(() => bip21Uri({ address: BIP21_ADDRESS, amountSats: -1n }), RangeError);
    assert.throws(() => bip21Uri({ address: BIP21_ADDRESS, amountSats: 2_100_000_000_000_001n }), RangeError);
    assert.throws(() => bip21Uri({ address: `${BIP21_ADDRESS}?amount=1`, amountSats: 1n }), /not a Bitcoin address/);
  });
});

describe('formatBtcAmount', () => {
  test('keeps every satoshi and drops trailing zeros', () => {
    assert.equal(formatBtcAmount(1n), '0.00000001');
    assert.equal(formatBtcAmount(10n), '0.0000001');
    assert.equal(formatBtcAmount(100_000_000n), '1');
    assert.equal(formatBtcAmount(2_100_000_000_000_000n), '21000000');
  });

  test('round-trips any satoshi amount through its decimal text', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2_100_000_000_000_000n }), (sats) => {
        const [whole = '', fraction = ''] = formatBtcAmount(sats).split('.');
        assert.ok(fraction.length <= 8);
        assert.ok(!fraction.endsWith('0'));
        assert.equal(BigInt(whole) * 100_000_000n + BigInt(fraction.padEnd(8, '0')), sats);
      }),
    );
  });
});

// EIP-681, github.com/ethereum/EIPs/blob/master/EIPS/eip-681.md ("Semantics"), ERC-20 example:
//   ethereum:0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7/transfer?address=0x8e23ee67d1332ad560396262c48ffbb01f93d052&uint256=1
// The grammar is `target_address [ "@" chain_id ] [ "/" function_name ] [ "?" parameters ]`, so the
// same request pinned to chain 1 carries "@1" right after the token address.
describe('eip681Erc20TransferUri', () => {
  test('reproduces the EIP-681 ERC-20 example with the chain id placed where the grammar puts it', () => {
    assert.equal(
      eip681Erc20TransferUri({
        tokenContract: '0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7',
        chainId: 1,
        to: '0x8e23ee67d1332ad560396262c48ffbb01f93d052',
        amountBaseUnits: 1n,
      }),
      'ethereum:0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7@1/transfer?address=0x8e23ee67d1332ad560396262c48ffbb01f93d052&uint256=1',
    );
  });

  test('writes large amounts as exact integers', () => {
    const uri = eip681Erc20TransferUri({
      tokenContract: '0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7',
      chainId: 137,
      to: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      amountBaseUnits: 123_456_789_012_345_678_901_234_567_890n,
    });
    assert.ok(uri.endsWith('&uint256=123456789012345678901234567890'));
    assert.ok(uri.includes('@137/transfer?address=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266&'));
  });

  test('rejects a mixed-case address with a wrong EIP-55 checksum', () => {
    assert.throws(
      () =>
        eip681Erc20TransferUri({
          tokenContract: '0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7',
          chainId: 1,
          to: '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
          amountBaseUnits: 1n,
        }),
      /to is not a valid EVM address/,
    );
  });

  test('rejects a missing or invalid chain id and out-of-range amounts', () => {
    const ok = {
      tokenContract: '0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7',
      chainId: 1,
      to: '0x8e23ee67d1332ad560396262c48ffbb01f93d052',
      amountBaseUnits: 1n,
    };
    assert.throws(() => eip681Erc20TransferUri({ ...ok, chainId: 0 }), /chainId/);
    assert.throws(() => eip681Erc20TransferUri({ ...ok, chainId: 1.5 }), /chainId/);
    assert.throws(() => eip681Erc20TransferUri({ ...ok, amountBaseUnits: 0n }), /amountBaseUnits/);
    assert.throws(() => eip681Erc20TransferUri({ ...ok, amountBaseUnits: 1n << 256n }), /amountBaseUnits/);
    assert.throws(() => eip681Erc20TransferUri({ ...ok, tokenContract: 'usdc.eth' }), /tokenContract/);
  });
});
