import type { CardConnector } from '../domain/connectors/card-connector.ts';
import type { PixConnector } from '../domain/connectors/pix-connector.ts';
import type { CurrencyTable } from '../domain/currencies/currency.ts';
import type { PaymentMethodType } from '../domain/payment-methods/payment-method.ts';
import type {
  CardPaymentProvider,
  ChainWatcher,
  PushPaymentProvider,
} from '../domain/payment-methods/payment-provider.ts';
import type { TestProcessorStore } from '../domain/repositories/test-card-processor.repository.ts';
import { BankTransferProvider } from './bank-transfer/bank-transfer.provider.ts';
import { CardProvider } from './card/card.provider.ts';
import type { StripeClientOptions } from './card/stripe/stripe.client.ts';
import { StripeConnector } from './card/stripe/stripe.connector.ts';
import { TestCardProcessor } from './card/test-card-processor.ts';
import { CashProvider } from './cash/cash.provider.ts';
import { LiveChains } from './crypto-onchain/chain-watchers.ts';
import type { EvmNetworkTokens } from './crypto-onchain/crypto-onchain.provider.ts';
import { CryptoOnchainProvider, TestChain } from './crypto-onchain/crypto-onchain.provider.ts';
import type { ApiPixClientOptions } from './pix/api-pix/api-pix.client.ts';
import { ApiPixConnector } from './pix/api-pix/api-pix.connector.ts';
import { PixProvider } from './pix/pix.provider.ts';

/** Every adapter, one per method type, plus the test-mode stand-ins for the outside world. */
export type ProviderRegistry = {
  card: CardPaymentProvider;
  /** Card processors a merchant connects its own account of (providers/card/<name>/). */
  cardConnectors: CardConnector[];
  /** The PSPs merchants connect through the Central Bank's API Pix (providers/pix/api-pix/). */
  pixConnector: PixConnector;
  push: Record<Exclude<PaymentMethodType, 'CARD'>, PushPaymentProvider>;
  /** Test mode's simulated chain (tests may give several instances one). */
  chain: ChainWatcher;
  /** Live mode's chains: the sources the operator configured. */
  liveChain: LiveChains;
  /** Test mode's card network and blockchain, exposed so test helpers can drive them. */
  testProcessor: TestCardProcessor;
  testChain: TestChain;
};

export function createProviders(
  currencies: CurrencyTable,
  now: () => Date,
  options: {
    /** Confirmations a payment needs, by network (2 when not given). */
    requiredConfirmations?: (network: string) => number;
    cardApprovalDelayMs?: number;
    processorStore: TestProcessorStore;
    /** Live mode's chain sources; none: no live crypto order can be opened. */
    liveChains?: LiveChains;
    /** EVM chain ids and token contracts (mainnet's when not given). */
    evmNetworks?: Record<string, EvmNetworkTokens>;
    /** How the Stripe connector reaches Stripe (STRIPE_API_URL); the defaults when not given. */
    stripe?: StripeClientOptions;
    /** How the API Pix connector calls PSPs (PIX_API_TIMEOUT_MS); the defaults when not given. */
    pix?: Partial<ApiPixClientOptions>;
  },
): ProviderRegistry {
  const decimalsOf = (code: string) => currencies.decimalsOf(code);
  const testProcessor = new TestCardProcessor({
    now,
    approvalDelayMs: options.cardApprovalDelayMs ?? 3000,
    store: options.processorStore,
  });
  const testChain = new TestChain();
  const liveChains = options.liveChains ?? new LiveChains({});
  return {
    card: new CardProvider({ test: testProcessor, live: null }, now),
    cardConnectors: [
      new StripeConnector(
        options.stripe ?? { apiUrl: 'https://api.stripe.com', timeoutMs: 20_000, maxNetworkRetries: 2 },
        decimalsOf,
      ),
    ],
    pixConnector: new ApiPixConnector(options.pix),
    push: {
      PIX: new PixProvider(),
      CRYPTO_ONCHAIN: new CryptoOnchainProvider(
        decimalsOf,
        options.requiredConfirmations ?? (() => 2),
        (network, currency) => liveChains.watches(network, currency),
        options.evmNetworks,
      ),
      BANK_TRANSFER: new BankTransferProvider(decimalsOf),
      CASH: new CashProvider(decimalsOf),
    },
    chain: testChain,
    liveChain: liveChains,
    testProcessor,
    testChain,
  };
}
