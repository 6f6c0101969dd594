import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import {
  BTC_TEST_ZPUB,
  BTC_TESTNET_TEST_VPUB,
  deriveBtcAddress,
  deriveEvmAddress,
  EVM_TEST_XPUB,
  isValidEvmAddress,
  toEip55Checksum,
} from '../../../src/providers/crypto-onchain/derivation.ts';

const base58check = createBase58check(sha256);

/** Re-serializes an extended key under other SLIP-0132 version bytes (the key material is untouched). */
function withVersion(extendedKey: string, version: number): string {
  const bytes = Uint8Array.from(base58check.decode(extendedKey));
  new DataView(bytes.buffer).setUint32(0, version, false);
  return base58check.encode(bytes);
}

// BIP84 test vectors, github.com/bitcoin/bips/blob/master/bip-0084.mediawiki ("Test vectors"):
// mnemonic "abandon abandon … about", account 0 = m/84'/0'/0'.
//   m/84'/0'/0'/0/0 → bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu
//   m/84'/0'/0'/0/1 → bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g
// The BIP text prints the account zprv (zprvAdG4iTXW…CroSQnE); BTC_TEST_ZPUB is its public half and
// appears verbatim in the BIP84 test vectors of public wallet libraries.
// Index 1234 → bc1q4nm6g46ujzyjaeusralaz2nfv2rf04jjfyamkw is from trezor/blockbook
// (bchain/coins/btc/bitcoinparser_test.go, "m/84'/0'/0'" case), a second, independent implementation.
describe('deriveBtcAddress', () => {
  test('derives the BIP84 published receive addresses from the account zpub', () => {
    assert.equal(deriveBtcAddress(BTC_TEST_ZPUB, 0, 'mainnet'), 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    assert.equal(deriveBtcAddress(BTC_TEST_ZPUB, 1, 'mainnet'), 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
  });

  test('derives the address Trezor blockbook publishes for index 1234', () => {
    assert.equal(deriveBtcAddress(BTC_TEST_ZPUB, 1234, 'mainnet'), 'bc1q4nm6g46ujzyjaeusralaz2nfv2rf04jjfyamkw');
  });

  test('gives the same addresses when the account key is serialized as xpub instead of zpub', () => {
    const xpub = withVersion(BTC_TEST_ZPUB, 0x0488b21e);
    assert.ok(xpub.startsWith('xpub'));
    assert.equal(deriveBtcAddress(xpub, 0, 'mainnet'), 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
  });

  // Testnet account m/84'/1'/0' of the same mnemonic; vpub and addresses as published in the
  // BIP84 testnet fixtures of public wallets (e.g. ACINQ lightning-kmp, bdk-based wallets).
  test('derives the published testnet addresses from a vpub and from the equivalent tpub', () => {
    assert.equal(deriveBtcAddress(BTC_TESTNET_TEST_VPUB, 0, 'testnet'), 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
    assert.equal(deriveBtcAddress(BTC_TESTNET_TEST_VPUB, 1, 'testnet'), 'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97');
    const tpub = withVersion(BTC_TESTNET_TEST_VPUB, 0x043587cf);
    assert.ok(tpub.startsWith('tpub'));
    assert.equal(deriveBtcAddress(tpub, 0, 'testnet'), 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
  });

  test('refuses to derive when the key prefix and the requested network disagree', () => {
    assert.throws(() => deriveBtcAddress(BTC_TEST_ZPUB, 0, 'testnet'), /belongs to mainnet, not testnet/);
    assert.throws(() => deriveBtcAddress(BTC_TESTNET_TEST_VPUB, 0, 'mainnet'), /belongs to testnet, not mainnet/);
  });

  test('refuses extended private keys', () => {
    const accountZprv =
      'zprvAdG4iTXWBoARxkkzNpNh8r6Qag3irQB8PzEMkAFeTRXxHpbF9z4QgEvBRmfvqWvGp42t42nvgGpNgYSJA9iefm1yYNZKEm7z6qUWCroSQnE';
    assert.throws(() => deriveBtcAddress(accountZprv, 0, 'mainnet'), /private keys are not accepted/);
  });

  test('refuses keys with a bad checksum or an unknown prefix', () => {
    const corrupted = `${BTC_TEST_ZPUB.slice(0, -1)}${BTC_TEST_ZPUB.endsWith('s') ? 't' : 's'}`;
    assert.throws(() => deriveBtcAddress(corrupted, 0, 'mainnet'), /invalid extended public key/);
    assert.throws(() => deriveBtcAddress(withVersion(BTC_TEST_ZPUB, 0x049d7cb2), 0, 'mainnet'), /unsupported/);
  });

  test('refuses hardened, negative and fractional indexes', () => {
    for (const index of [-1, 0x80000000, 1.5, Number.NaN]) {
      assert.throws(() => deriveBtcAddress(BTC_TEST_ZPUB, index, 'mainnet'), RangeError, String(index));
    }
    assert.doesNotThrow(() => deriveBtcAddress(BTC_TEST_ZPUB, 0x7fffffff, 'mainnet'));
  });
});

// EIP-55 examples, github.com/ethereum/EIPs/blob/master/EIPS/eip-55.md ("Specification", test(...) lines).
const EIP55_EXAMPLES = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('toEip55Checksum', () => {
  test('reproduces the EIP-55 examples from their lowercase and uppercase forms', () => {
    for (const address of EIP55_EXAMPLES) {
      assert.equal(toEip55Checksum(address.toLowerCase()), address);
      assert.equal(toEip55Checksum(`0x${address.slice(2).toUpperCase()}`), address);
    }
  });

  test('rejects text that is not a 20-byte hex address', () => {
    assert.throws(() => toEip55Checksum('0x1234'), RangeError);
    assert.throws(() => toEip55Checksum(`0x${'g'.repeat(40)}`), RangeError);
  });
});

describe('isValidEvmAddress', () => {
  test('accepts correctly checksummed, all-lowercase and all-uppercase addresses', () => {
    for (const address of EIP55_EXAMPLES) {
      assert.equal(isValidEvmAddress(address), true);
      assert.equal(isValidEvmAddress(address.toLowerCase()), true);
    }
  });

  test('rejects a mixed-case address with one letter in the wrong case', () => {
    const [first = ''] = EIP55_EXAMPLES;
    const wrong = first.replace('aAeb', 'aaeb');
    assert.equal(isValidEvmAddress(wrong), false);
  });
});

// Hardhat Network / Foundry Anvil default accounts for the mnemonic "test test … junk" on
// m/44'/60'/0'/0/i, printed by `npx hardhat node` and `anvil` (accounts #0, #1, #2).
// EVM_TEST_XPUB (its m/44'/60'/0' node) is the same value API3 airnode's tests expect from
// deriveAirnodeXpub("test test … junk").
// The "abandon … about" account m/44'/60'/0'/0/0 = 0x9858EfFD232B4033E47d90003D41EC34EcaEda94 is the
// address published for that mnemonic by many BIP39/BIP44 wallet test suites; its account xpub
// below was derived offline from the public mnemonic (no seed or private key is stored here).
const ABANDON_ETH_ACCOUNT_XPUB =
  'xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt';

describe('deriveEvmAddress', () => {
  test('derives the Hardhat and Anvil default accounts from the test xpub', () => {
    assert.equal(deriveEvmAddress(EVM_TEST_XPUB, 0), '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    assert.equal(deriveEvmAddress(EVM_TEST_XPUB, 1), '0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    assert.equal(deriveEvmAddress(EVM_TEST_XPUB, 2), '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
  });

  test('derives the published first account of the "abandon … about" mnemonic', () => {
    assert.equal(deriveEvmAddress(ABANDON_ETH_ACCOUNT_XPUB, 0), '0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  });

  test('returns addresses that carry a valid EIP-55 checksum', () => {
    for (let i = 0; i < 20; i++) {
      const address = deriveEvmAddress(EVM_TEST_XPUB, i);
      assert.match(address, /^0x[0-9a-fA-F]{40}$/);
      assert.equal(toEip55Checksum(address.toLowerCase()), address);
    }
  });

  test('refuses non-xpub prefixes and private keys', () => {
    assert.throws(() => deriveEvmAddress(BTC_TEST_ZPUB, 0), /unsupported extended public key prefix "zpub"/);
    assert.throws(() => deriveEvmAddress(`xprv${EVM_TEST_XPUB.slice(4)}`, 0), /private keys are not accepted/);
  });
});
