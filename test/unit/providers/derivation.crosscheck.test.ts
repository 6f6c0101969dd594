/**
 * Cross-checks our address derivation against independent implementations: ethers' BIP32 (CKDpub)
 * and bitcoinjs-lib's P2WPKH/bech32 encoding. Our own test vectors were computed with the same code
 * they test, so a derivation bug would be repeated in them; a second implementation would not repeat it.
 * Deliberately avoids @scure/bip32 and @noble/hashes, which src/providers/crypto-onchain/derivation.ts uses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { networks, payments } from 'bitcoinjs-lib';
import { concat, dataSlice, decodeBase58, encodeBase58, getBytes, HDNodeWallet, sha256, toBeArray } from 'ethers';
import fc from 'fast-check';
import {
  BTC_TEST_ZPUB,
  BTC_TESTNET_TEST_VPUB,
  deriveBtcAddress,
  deriveEvmAddress,
  EVM_TEST_XPUB,
} from '../../../src/providers/crypto-onchain/derivation.ts';

const NON_HARDENED_INDEX = fc.integer({ min: 0, max: 0x7fffffff });

/** Rewrites the SLIP-0132 version bytes (zpub → xpub, vpub → tpub) so ethers accepts the key. */
function withVersion(extendedKey: string, version: string): string {
  const bytes = toBeArray(decodeBase58(extendedKey)); // 78-byte payload + 4-byte checksum; starts with 0x04
  const payload = concat([version, dataSlice(bytes, 4, 78)]);
  assert.equal(dataSlice(bytes, 78), dataSlice(sha256(sha256(dataSlice(bytes, 0, 78))), 0, 4), 'checksum');
  return encodeBase58(concat([payload, dataSlice(sha256(sha256(payload)), 0, 4)]));
}

/** Independent BIP84 receive address m/…/0/index: ethers for the child key, bitcoinjs-lib for the address. */
function independentBtcAddresses(accountXpub: string, network: typeof networks.bitcoin): (index: number) => string {
  const receiveChain = HDNodeWallet.fromExtendedKey(accountXpub).deriveChild(0);
  return (index) => {
    const pubkey = getBytes(receiveChain.deriveChild(index).publicKey);
    const { address } = payments.p2wpkh({ pubkey, network });
    assert.ok(address !== undefined);
    return address;
  };
}

const independentMainnet = independentBtcAddresses(withVersion(BTC_TEST_ZPUB, '0x0488b21e'), networks.bitcoin);
const independentTestnet = independentBtcAddresses(withVersion(BTC_TESTNET_TEST_VPUB, '0x043587cf'), networks.testnet);

test('Bitcoin receive addresses match an independent BIP32 + bitcoinjs-lib derivation on the BIP84 test vectors', () => {
  // BIP-0084 test vectors, https://github.com/bitcoin/bips/blob/master/bip-0084.mediawiki
  // mnemonic "abandon abandon … about", account 0 (m/84'/0'/0').
  assert.equal(
    BTC_TEST_ZPUB,
    'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
  );
  const vectors: ReadonlyArray<[number, string]> = [
    [0, 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'], // m/84'/0'/0'/0/0
    [1, 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g'], // m/84'/0'/0'/0/1
  ];
  for (const [index, expected] of vectors) {
    assert.equal(independentMainnet(index), expected);
    assert.equal(deriveBtcAddress(BTC_TEST_ZPUB, index, 'mainnet'), expected);
  }
});

test('Bitcoin mainnet receive addresses match an independent BIP32 + bitcoinjs-lib derivation on 1,000 random indexes', () => {
  fc.assert(
    fc.property(NON_HARDENED_INDEX, (index) => {
      assert.equal(deriveBtcAddress(BTC_TEST_ZPUB, index, 'mainnet'), independentMainnet(index));
    }),
    { numRuns: 1000 },
  );
});

test('Bitcoin testnet receive addresses match an independent BIP32 + bitcoinjs-lib derivation on 1,000 random indexes', () => {
  // m/84'/1'/0'/0/0 of the same mnemonic, as documented next to BTC_TESTNET_TEST_VPUB.
  assert.equal(independentTestnet(0), 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
  fc.assert(
    fc.property(NON_HARDENED_INDEX, (index) => {
      assert.equal(deriveBtcAddress(BTC_TESTNET_TEST_VPUB, index, 'testnet'), independentTestnet(index));
    }),
    { numRuns: 1000 },
  );
});

test("EVM addresses match ethers' HD derivation on 1,000 random indexes, and child 0 is the well-known Hardhat account 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", () => {
  const receiveChain = HDNodeWallet.fromExtendedKey(EVM_TEST_XPUB).deriveChild(0);
  assert.equal(receiveChain.deriveChild(0).address, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  assert.equal(deriveEvmAddress(EVM_TEST_XPUB, 0), '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  fc.assert(
    fc.property(NON_HARDENED_INDEX, (index) => {
      assert.equal(deriveEvmAddress(EVM_TEST_XPUB, index), receiveChain.deriveChild(index).address);
    }),
    { numRuns: 1000 },
  );
});
