import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32 } from '@scure/base';
import { HDKey } from '@scure/bip32';

export type BitcoinNetwork = 'mainnet' | 'testnet';

/**
 * BIP84 account 0 (m/84'/0'/0') of the BIP39 test mnemonic "abandon … about", as published in the
 * BIP84 test vectors. Its receive addresses are public knowledge: use it only in test mode.
 */
export const BTC_TEST_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

/** Same mnemonic, testnet account m/84'/1'/0' (first receive address tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl). */
export const BTC_TESTNET_TEST_VPUB =
  'vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc';

/**
 * m/44'/60'/0' of the Hardhat/Anvil development mnemonic "test test … junk". Child 0/0 is the
 * well-known dev account 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266; use it only in test mode.
 */
export const EVM_TEST_XPUB =
  'xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP';

interface VersionInfo {
  network: BitcoinNetwork;
  public: number;
  private: number;
}

// SLIP-0132 version bytes. @scure/bip32 checks the version against the pair it is given, so each
// prefix is parsed with its own pair instead of rewriting the bytes to xpub/tpub.
const PUBLIC_VERSIONS: Readonly<Record<string, VersionInfo>> = {
  xpub: { network: 'mainnet', public: 0x0488b21e, private: 0x0488ade4 },
  zpub: { network: 'mainnet', public: 0x04b24746, private: 0x04b2430c },
  tpub: { network: 'testnet', public: 0x043587cf, private: 0x04358394 },
  vpub: { network: 'testnet', public: 0x045f1cf6, private: 0x045f18bc },
};

const BECH32_HRP: Readonly<Record<BitcoinNetwork, string>> = { mainnet: 'bc', testnet: 'tb' };

// secp256k1 field prime; only needed to decompress public keys for EVM addresses.
const SECP256K1_P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;

function assertChildIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 0x80000000) {
    throw new RangeError('index must be an integer from 0 to 2147483647 (non-hardened)');
  }
}

function parseAccountKey(extendedKey: string, allowed: readonly string[]): { key: HDKey; network: BitcoinNetwork } {
  const prefix = extendedKey.slice(0, 4);
  if (/^[a-zA-Z]prv$/.test(prefix)) {
    // Refuse loudly: this service is non-custodial and must never be handed signing keys.
    throw new RangeError('extended private keys are not accepted; pass the account extended public key');
  }
  const versions = PUBLIC_VERSIONS[prefix];
  if (versions === undefined || !allowed.includes(prefix)) {
    throw new RangeError(`unsupported extended public key prefix "${prefix}"; expected one of ${allowed.join(', ')}`);
  }
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(extendedKey, { public: versions.public, private: versions.private });
  } catch (cause) {
    throw new RangeError(`invalid extended public key: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (key.privateKey !== null) {
    throw new RangeError('extended private keys are not accepted; pass the account extended public key');
  }
  return { key, network: versions.network };
}

function childPublicKey(account: HDKey, index: number): Uint8Array {
  // External (receive) chain 0, as BIP44/BIP84 define it relative to the account key.
  const pub = account.deriveChild(0).deriveChild(index).publicKey;
  if (pub === null) {
    throw new Error('derivation produced no public key');
  }
  return pub;
}

/**
 * Derives the BIP84 native segwit (P2WPKH, bech32) receive address `m/0/index` below an account
 * extended public key. No private key is ever involved.
 *
 * @param xpub - Account-level key (m/84'/coin'/account'): `zpub`/`xpub` for mainnet, `vpub`/`tpub` for testnet.
 * @param index - Receive address index, 0 to 2^31-1.
 * @param network - Must agree with the key's prefix, so a testnet key cannot produce mainnet addresses.
 * @throws RangeError for private keys, unknown prefixes, bad checksums, a network mismatch or a bad index.
 */
export function deriveBtcAddress(xpub: string, index: number, network: BitcoinNetwork): string {
  assertChildIndex(index);
  const parsed = parseAccountKey(xpub, ['xpub', 'zpub', 'tpub', 'vpub']);
  if (parsed.network !== network) {
    throw new RangeError(`a ${xpub.slice(0, 4)} key belongs to ${parsed.network}, not ${network}`);
  }
  const program = ripemd160(sha256(childPublicKey(parsed.key, index)));
  // Witness version 0 followed by the 20-byte key hash (BIP141 P2WPKH, BIP173 encoding).
  return bech32.encode(BECH32_HRP[network], [0, ...bech32.toWords(program)]);
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) {
      result = (result * b) % modulus;
    }
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const byte of bytes) {
    n = (n << 8n) | BigInt(byte);
  }
  return n;
}

function bigIntTo32Bytes(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let rest = n;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

/**
 * Expands a 33-byte compressed secp256k1 point to its 64-byte X‖Y form (without the 0x04 prefix).
 * Ethereum hashes the uncompressed coordinates, and BIP32 only hands out compressed keys.
 */
function uncompressedXY(compressed: Uint8Array): Uint8Array {
  const prefix = compressed[0];
  if (compressed.length !== 33 || (prefix !== 0x02 && prefix !== 0x03)) {
    throw new RangeError('expected a 33-byte compressed public key');
  }
  const x = bytesToBigInt(compressed.subarray(1));
  const p = SECP256K1_P;
  const ySquared = (modPow(x, 3n, p) + 7n) % p;
  // p ≡ 3 (mod 4), so a square root is ySquared^((p+1)/4).
  let y = modPow(ySquared, (p + 1n) / 4n, p);
  if ((y * y) % p !== ySquared) {
    throw new RangeError('public key is not on secp256k1');
  }
  if ((y & 1n) !== BigInt(prefix & 1)) {
    y = p - y;
  }
  const out = new Uint8Array(64);
  out.set(bigIntTo32Bytes(x), 0);
  out.set(bigIntTo32Bytes(y), 32);
  return out;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Applies the EIP-55 mixed-case checksum to a 20-byte hex address.
 *
 * @param address - `0x` followed by 40 hex digits, in any case.
 * @returns The checksummed form, e.g. `0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed`.
 * @throws RangeError when the text is not a 20-byte hex address.
 */
export function toEip55Checksum(address: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new RangeError('address must be 0x followed by 40 hexadecimal digits');
  }
  const lower = address.slice(2).toLowerCase();
  const hash = hex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charAt(i);
    out += Number.parseInt(hash.charAt(i), 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/**
 * True when an address is all-lowercase, all-uppercase (no checksum claimed) or carries a correct
 * EIP-55 checksum; false for a mixed-case address whose checksum is wrong (a likely typo).
 */
export function isValidEvmAddress(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
    return false;
  }
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) {
    return true;
  }
  return toEip55Checksum(address) === address;
}

/**
 * Derives the EVM address of child `0/index` below an account extended public key (typically
 * m/44'/60'/0'), the path MetaMask, Ledger Live and Hardhat use for account `index`.
 *
 * @returns EIP-55 checksummed address: last 20 bytes of keccak256(X‖Y of the uncompressed key).
 * @throws RangeError for private keys, non-`xpub` prefixes, bad checksums or a bad index.
 */
export function deriveEvmAddress(xpub: string, index: number): string {
  assertChildIndex(index);
  const { key } = parseAccountKey(xpub, ['xpub']);
  const digest = keccak_256(uncompressedXY(childPublicKey(key, index)));
  return toEip55Checksum(`0x${hex(digest.subarray(12))}`);
}
