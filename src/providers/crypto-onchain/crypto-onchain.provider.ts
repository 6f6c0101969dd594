import type {
  ChainPayment,
  ChainWatch,
  ChainWatcher,
  InitiateInput,
  PushPaymentProvider,
} from '../../domain/payment-methods/payment-provider.ts';
import { formatMinor } from '../../domain/shared/money.ts';
import { deriveBtcAddress, deriveEvmAddress } from './derivation.ts';
import { bip21Uri, eip681Erc20TransferUri } from './payment-uri.ts';

/** An EVM network as orders and watchers see it: its chain id and the ERC-20 contract of each currency. */
export type EvmNetworkTokens = { chainId: number; contracts: Record<string, string> };

/** ERC-20 contracts of the stablecoins the catalogue offers, by network, on mainnet (operators may override them). */
export const MAINNET_TOKENS: Readonly<Record<string, EvmNetworkTokens>> = {
  ethereum: {
    chainId: 1,
    contracts: {
      USDT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    },
  },
  polygon: { chainId: 137, contracts: { USDT: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F' } },
  base: { chainId: 8453, contracts: { USDC: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } },
};

/**
 * CRYPTO_ONCHAIN, non-custodial: each order gets a fresh address derived from the merchant's
 * extended PUBLIC key (the service never sees a private key), the amount converted at the rate
 * table, and a BIP21 / EIP-681 URI for wallets. A ChainWatcher reports what arrives.
 */
export class CryptoOnchainProvider implements PushPaymentProvider {
  readonly type = 'CRYPTO_ONCHAIN' as const;
  readonly supportsRecurring = true;

  constructor(
    private readonly decimalsOf: (currency: string) => number,
    private readonly requiredConfirmations: (network: string) => number,
    /**
     * Whether live mode watches a network, and with a currency, counts that currency's payments
     * there: an address nobody watches is never handed to a payer.
     */
    private readonly watchedLive: (network: string, currency?: string) => boolean,
    private readonly evmNetworks: Readonly<Record<string, EvmNetworkTokens>> = MAINNET_TOKENS,
  ) {}

  prepare(input: InitiateInput): ReturnType<PushPaymentProvider['prepare']> {
    const network = input.method.network?.id ?? '';
    const crypto = input.settings.crypto;
    const amount = formatMinor(input.charged.amountMinor, this.decimalsOf(input.charged.currency));
    const unwatched = input.mode === 'live' ? this.unwatchedLive(network, input.charged.currency) : null;
    if (unwatched) {
      return { ok: false, error: { code: 'NOT_CONFIGURED', message: unwatched, retryable: false } };
    }
    try {
      if (network === 'bitcoin') {
        if (!crypto?.btcXpub) {
          return notConfigured('bitcoin');
        }
        const address = deriveBtcAddress(crypto.btcXpub, input.derivationIndex, crypto.btcNetwork);
        return {
          ok: true,
          ref: address,
          instructions: {
            type: 'CRYPTO_ONCHAIN',
            address,
            network,
            currency: input.charged.currency,
            amount,
            uri: bip21Uri({ address, amountSats: input.charged.amountMinor }),
            required_confirmations: this.requiredConfirmations(network),
            derivation_index: input.derivationIndex,
          },
        };
      }
      const token = this.evmNetworks[network];
      const contract = token?.contracts[input.charged.currency];
      if (!token || !contract) {
        return {
          ok: false,
          error: {
            code: 'NOT_CONFIGURED',
            message: `no token contract for ${input.charged.currency} on ${network}`,
            retryable: false,
          },
        };
      }
      if (!crypto?.evmXpub) {
        return notConfigured(network);
      }
      const address = deriveEvmAddress(crypto.evmXpub, input.derivationIndex);
      return {
        ok: true,
        ref: address,
        instructions: {
          type: 'CRYPTO_ONCHAIN',
          address,
          network,
          currency: input.charged.currency,
          amount,
          uri: eip681Erc20TransferUri({
            tokenContract: contract,
            chainId: token.chainId,
            to: address,
            amountBaseUnits: input.charged.amountMinor,
          }),
          required_confirmations: this.requiredConfirmations(network),
          derivation_index: input.derivationIndex,
        },
      };
    } catch (error) {
      return { ok: false, error: { code: 'REJECTED_INPUT', message: (error as Error).message, retryable: false } };
    }
  }

  /** Why live mode would not see this order paid; null when it would. */
  private unwatchedLive(network: string, currency: string): string | null {
    if (!this.watchedLive(network)) {
      return `${network} payments are not watched on this server yet (its operator has not configured a chain source for it)`;
    }
    if (!this.watchedLive(network, currency)) {
      return `${currency} payments on ${network} are not watched on this server now (its chain source does not count this token: its contract failed the source's check; the operator sees why in GET /ready)`;
    }
    return null;
  }
}

function notConfigured(network: string): {
  ok: false;
  error: { code: 'NOT_CONFIGURED'; message: string; retryable: false };
} {
  return {
    ok: false,
    error: {
      code: 'NOT_CONFIGURED',
      message: `the merchant has no extended public key for ${network}`,
      retryable: false,
    },
  };
}

/**
 * A simulated blockchain for test mode: transactions are "broadcast" to an address and gain
 * confirmations as blocks are "mined". It stands in for the outside world (a node or an
 * indexer), the way the test card processor stands in for the card network.
 */
export class TestChain implements ChainWatcher {
  private readonly txs = new Map<string, { txid: string; amountBaseUnits: bigint; confirmations: number }[]>();
  private counter = 0;

  send(network: string, address: string, amountBaseUnits: bigint, confirmations = 0): string {
    const txid = `testtx${(++this.counter).toString().padStart(10, '0')}`;
    const key = `${network}:${address.toLowerCase()}`;
    const list = this.txs.get(key) ?? [];
    list.push({ txid, amountBaseUnits, confirmations });
    this.txs.set(key, list);
    return txid;
  }

  /** Adds `blocks` confirmations to every transaction on `network`. */
  mine(network: string, blocks = 1): void {
    for (const [key, list] of this.txs) {
      if (key.startsWith(`${network}:`)) {
        for (const tx of list) {
          tx.confirmations += blocks;
        }
      }
    }
  }

  async received(network: string, watches: readonly ChainWatch[]): Promise<Map<string, ChainPayment[]>> {
    return new Map(
      watches.map((w) => [
        w.address,
        (this.txs.get(`${network}:${w.address.toLowerCase()}`) ?? []).map((t) => ({ ...t })),
      ]),
    );
  }
}
