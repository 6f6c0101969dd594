import type { Logger } from 'pino';
import type { Config, EvmNetwork } from '../config/config.ts';
import type { ChainScanStore } from '../domain/repositories/chain-scan.repository.ts';
import { EsploraWatcher, LiveChains } from '../providers/crypto-onchain/chain-watchers.ts';
import type { EvmNetworkTokens } from '../providers/crypto-onchain/crypto-onchain.provider.ts';
import { MAINNET_TOKENS } from '../providers/crypto-onchain/crypto-onchain.provider.ts';
import { EsploraClient } from '../providers/crypto-onchain/esplora.ts';
import { EvmRpcClient } from '../providers/crypto-onchain/evm-rpc.ts';
import { EvmWatcher } from '../providers/crypto-onchain/evm-watcher.ts';

/** The EVM networks' chain ids and token contracts: mainnet's, with the operator's overrides. */
export function evmNetworks(config: Pick<Config, 'chains'>): Record<string, EvmNetworkTokens> {
  const out: Record<string, EvmNetworkTokens> = {};
  for (const [network, mainnet] of Object.entries(MAINNET_TOKENS)) {
    const given = config.chains.evm[network as EvmNetwork];
    out[network] = {
      chainId: given?.chainId ?? mainnet.chainId,
      contracts: { ...mainnet.contracts, ...given?.tokens },
    };
  }
  return out;
}

/** Live mode's chain sources, from the operator's settings (never from a request). */
export function liveChains(
  config: Pick<Config, 'chains'>,
  networks: Record<string, EvmNetworkTokens>,
  store: ChainScanStore,
  decimalsOf: (currency: string) => number,
  logger: Logger,
): LiveChains {
  const { bitcoinEsploraUrl, pollMs, timeoutMs } = config.chains;
  const sources: Record<string, EsploraWatcher | EvmWatcher> = {};
  if (bitcoinEsploraUrl) {
    sources.bitcoin = new EsploraWatcher(new EsploraClient({ baseUrl: bitcoinEsploraUrl, timeoutMs }), {
      now: () => Date.now(),
      pollMs,
    });
  }
  for (const [network, given] of Object.entries(config.chains.evm)) {
    const tokens = networks[network];
    if (given.rpcUrl && tokens) {
      sources[network] = new EvmWatcher(new EvmRpcClient({ url: given.rpcUrl, timeoutMs }), store, {
        network,
        chainId: tokens.chainId,
        tokens: Object.fromEntries(Object.entries(tokens.contracts).map(([c, a]) => [c, a.toLowerCase()])),
        decimalsOf,
        // The next poll after a first failure, then twice as long each time, up to 10 minutes.
        backoffMs: (failures) => Math.min(pollMs * 2 ** (failures - 1) - pollMs / 2, 10 * 60_000),
        onReorg: (fork, from) =>
          logger.warn({ network, fork, from }, 'chain reorganised: transfers above the fork are scanned again'),
        onTokenChange: (currency, token) =>
          token.status === 'DISABLED'
            ? logger.warn(
                { network, currency, contract: token.contract, reason: token.reason },
                'chain token disabled: its payments are not counted until its check passes',
              )
            : logger.info({ network, currency, contract: token.contract }, 'chain token enabled again'),
      });
    }
  }
  return new LiveChains(sources);
}

/** Confirmations a network's payment needs before its order closes: the operator's setting, else 2. */
export function requiredConfirmations(config: Pick<Config, 'chains'>): (network: string) => number {
  return (network) => config.chains.confirmations[network as keyof Config['chains']['confirmations']] ?? 2;
}
