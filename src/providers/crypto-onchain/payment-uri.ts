import { isValidEvmAddress } from './derivation.ts';

export interface Bip21Request {
  /** Bitcoin address (bech32 or base58). */
  address: string;
  /** Amount in satoshis; 1 BTC is `100_000_000n`. */
  amountSats: bigint;
  /** Name of the receiver, shown by the payer's wallet. */
  label?: string;
}

export interface Erc20TransferRequest {
  /** ERC-20 token contract address. */
  tokenContract: string;
  /** EIP-155 chain id (1 = Ethereum mainnet, 137 = Polygon, 11155111 = Sepolia, …). */
  chainId: number;
  /** Receiving address. */
  to: string;
  /** Amount in the token's smallest unit (e.g. 1 USDC with 6 decimals is `1_000_000n`). */
  amountBaseUnits: bigint;
}

const SATS_PER_BTC = 100_000_000n;
const MAX_SATS = 21_000_000n * SATS_PER_BTC;
const UINT256_MAX = (1n << 256n) - 1n;

/**
 * Writes satoshis as decimal BTC with at most 8 decimals and no trailing zeros, in integer arithmetic.
 *
 * @example formatBtcAmount(2_030_000_000n) === '20.3'
 */
export function formatBtcAmount(amountSats: bigint): string {
  const whole = amountSats / SATS_PER_BTC;
  const fraction = (amountSats % SATS_PER_BTC).toString().padStart(8, '0').replace(/0+$/, '');
  return fraction.length === 0 ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * Builds a BIP21 `bitcoin:` payment URI.
 *
 * @throws RangeError when the address has characters no Bitcoin address has, or the amount is not
 *   a positive number of satoshis within the 21 million BTC supply.
 */
export function bip21Uri(request: Bip21Request): string {
  const { address, amountSats, label } = request;
  // Base58 and bech32 both use only ASCII letters and digits; anything else would also break the URI.
  if (!/^[A-Za-z0-9]{14,90}$/.test(address)) {
    throw new RangeError('address is not a Bitcoin address');
  }
  if (typeof amountSats !== 'bigint' || amountSats <= 0n || amountSats > MAX_SATS) {
    throw new RangeError('amountSats must be a positive bigint no larger than 21 million BTC');
  }
  let uri = `bitcoin:${address}?amount=${formatBtcAmount(amountSats)}`;
  if (label !== undefined && label.length > 0) {
    uri += `&label=${encodeURIComponent(label)}`;
  }
  return uri;
}

/**
 * Builds an EIP-681 request to call `transfer(address,uint256)` on an ERC-20 contract:
 * `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<amount>`.
 *
 * The chain id is mandatory here: without it a wallet sends on whatever network it is on, and the
 * payment could land on a chain where the merchant is not watching.
 *
 * @throws RangeError for malformed or badly checksummed addresses, a non-positive chain id, or an
 *   amount outside 1..2^256-1.
 */
export function eip681Erc20TransferUri(request: Erc20TransferRequest): string {
  const { tokenContract, chainId, to, amountBaseUnits } = request;
  if (!isValidEvmAddress(tokenContract)) {
    throw new RangeError(
      'tokenContract is not a valid EVM address (0x + 40 hex digits, EIP-55 checksum if mixed case)',
    );
  }
  if (!isValidEvmAddress(to)) {
    throw new RangeError('to is not a valid EVM address (0x + 40 hex digits, EIP-55 checksum if mixed case)');
  }
  if (!Number.isSafeInteger(chainId) || chainId <= 0) {
    throw new RangeError('chainId must be a positive integer');
  }
  if (typeof amountBaseUnits !== 'bigint' || amountBaseUnits <= 0n || amountBaseUnits > UINT256_MAX) {
    throw new RangeError('amountBaseUnits must be a positive bigint that fits in uint256');
  }
  return `ethereum:${tokenContract}@${chainId}/transfer?address=${to}&uint256=${amountBaseUnits}`;
}
