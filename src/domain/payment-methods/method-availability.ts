import type { Mode } from '../merchants/merchant.ts';
import type { StoredSettings } from '../merchants/merchant-settings.ts';
import { readStoredSettings } from '../merchants/merchant-settings.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { PaymentMethod } from './payment-method.ts';

/**
 * Live mode offers only what can settle (INTERFACE.md §4): a method is offered to a live payer
 * only when something real can take the money for that merchant. Test mode offers every
 * enabled method (its providers are simulated, and missing settings use the test defaults).
 */

/** Why a method cannot be offered: a stable code for programs, and a sentence for people. */
export type UnavailableCode =
  | 'method_disabled'
  | 'card_connector_missing'
  | 'pix_key_missing'
  | 'bank_details_missing'
  | 'cash_network_missing'
  | 'network_not_watched'
  | 'token_disabled'
  | 'xpub_missing'
  | 'btc_network_mismatch';

export type Unavailable = {
  code: UnavailableCode;
  /** An English sentence without its full stop, starting with a common word (it may be lower-cased into a longer message). */
  message: string;
  /**
   * What the sentence names, for pages that say it in their own words: `network` (its name),
   * `currency`, `key` (`bitcoin` or `evm`, for xpub_missing), `keyNetwork` and `watched` (Bitcoin's).
   */
  params: Readonly<Record<string, string>>;
};

/** What a connector or the operator's chain sources can settle: implemented in providers/ and wired in main.ts. */
export interface SettlementPort {
  /** Whether live mode watches `network`; with `currency`, whether it watches that token there (a disabled token is not). */
  watches(network: string, currency?: string): boolean;
  /** The Bitcoin network live mode's Bitcoin source follows. */
  readonly liveBitcoinNetwork: 'mainnet' | 'testnet';
  /**
   * Whether a connector of this merchant settles `type` in `mode`: a card processor for CARD, an
   * API Pix account for PIX. Answered once per question, so a connector may look it up.
   */
  connected(type: 'CARD' | 'PIX', merchantId: string, mode: Mode): boolean | Promise<boolean>;
}

/** Everything the rule looks at for one merchant in one mode, gathered beforehand (no I/O in the rule). */
export type SettlementFacts = {
  mode: Mode;
  settings: StoredSettings;
  connected: { card: boolean; pix: boolean };
  chains: Pick<SettlementPort, 'watches' | 'liveBitcoinNetwork'>;
};

const reason = (code: UnavailableCode, message: string, params: Record<string, string> = {}): Unavailable => ({
  code,
  message,
  params,
});
const DISABLED = reason('method_disabled', 'Disabled on this server by its operator');
const CARD_MISSING = reason('card_connector_missing', 'Card payments need a card processor connection');
const PIX_MISSING = reason('pix_key_missing', 'Needs a PIX key in the payment settings');
const BANK_MISSING = reason('bank_details_missing', 'Needs your bank details in the payment settings');
// No voucher network is built in: a voucher nobody accepts must never reach a payer.
const CASH_MISSING = reason('cash_network_missing', 'No voucher network is connected for cash payments');

/**
 * Null when `method` can be offered with these facts, else why not. Checked in the order a
 * merchant would fix things: what only the operator can change (a network not watched) first,
 * then what the merchant adds.
 */
export function whyUnavailable(method: PaymentMethod, facts: SettlementFacts): Unavailable | null {
  if (method.status !== 'ENABLED') {
    return DISABLED;
  }
  if (facts.mode === 'test') {
    return null;
  }
  const { settings } = facts;
  switch (method.type) {
    case 'CARD':
      return facts.connected.card ? null : CARD_MISSING;
    case 'PIX':
      return facts.connected.pix || settings.pix ? null : PIX_MISSING;
    case 'BANK_TRANSFER':
      return settings.bank ? null : BANK_MISSING;
    case 'CASH':
      return CASH_MISSING;
    case 'CRYPTO_ONCHAIN':
      return cryptoUnavailable(method, facts);
  }
}

function cryptoUnavailable(method: PaymentMethod, facts: SettlementFacts): Unavailable | null {
  const id = method.network?.id ?? '';
  const network = method.network?.name ?? id;
  const currency = method.currency;
  if (!facts.chains.watches(id)) {
    return reason('network_not_watched', `This server does not watch ${network}`, { network });
  }
  if (!facts.chains.watches(id, currency)) {
    return reason('token_disabled', `This server does not watch ${currency} on ${network}`, { network, currency });
  }
  const crypto = facts.settings.crypto;
  if (id !== 'bitcoin') {
    return crypto?.evm_xpub
      ? null
      : reason('xpub_missing', 'Needs your EVM extended public key in the payment settings', { key: 'evm', network });
  }
  const watched = facts.chains.liveBitcoinNetwork;
  if (!crypto?.btc_xpub) {
    return reason('xpub_missing', 'Needs your Bitcoin extended public key in the payment settings', {
      key: 'bitcoin',
      network,
      watched,
    });
  }
  // Addresses are derived for the key's network: testnet addresses on a mainnet source would never be seen paid.
  const keyNetwork = crypto.btc_network ?? 'mainnet';
  return keyNetwork === watched
    ? null
    : reason(
        'btc_network_mismatch',
        `Your Bitcoin extended public key is for ${keyNetwork}, and this server watches Bitcoin ${watched}`,
        { keyNetwork, watched },
      );
}

/** How messages name a method: "PIX in BRL", "USDT on Ethereum". */
export function methodLabel(method: PaymentMethod): string {
  return method.type === 'CRYPTO_ONCHAIN' && method.network
    ? `${method.currency} on ${method.network.name}`
    : `${method.type} in ${method.currency}`;
}

/** A reason as part of a longer message: "…is not available in live mode: needs a PIX key…". */
export function reasonClause(why: Unavailable): string {
  return why.message.charAt(0).toLowerCase() + why.message.slice(1);
}

/** What one merchant can offer in one mode. */
export type MethodOffer = {
  /** The merchant's stored settings when they were read for this (live mode), so a caller reads them once. */
  readonly settings: StoredSettings | null;
  /** Null when a payer may be offered `method`, else why not. */
  whyNot(method: PaymentMethod): Unavailable | null;
};

/** The catalogue as a merchant sees it: what cannot be offered is listed DISABLED (existing clients still see it). */
export function asSeenWith(offer: MethodOffer, methods: readonly PaymentMethod[]): PaymentMethod[] {
  return methods.map((m) => (m.status === 'ENABLED' && offer.whyNot(m) ? { ...m, status: 'DISABLED' } : m));
}

const NO_SETTINGS: StoredSettings = {};
const NOTHING_CONNECTED = { card: false, pix: false };
const TEST_OFFER: MethodOffer = {
  settings: null,
  whyNot: (method) =>
    whyUnavailable(method, {
      mode: 'test',
      settings: NO_SETTINGS,
      connected: NOTHING_CONNECTED,
      chains: { watches: () => true, liveBitcoinNetwork: 'mainnet' },
    }),
};

/**
 * Gathers the facts `whyUnavailable` decides on: the merchant's stored settings and what the
 * server's connectors and chain sources can settle. Test mode needs none of them, and reads nothing.
 */
export class MethodAvailabilityService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly port: SettlementPort,
  ) {}

  /** `settings`: the merchant's stored settings when the caller has just read them. */
  async offerOf(merchantId: string, mode: Mode, settings?: StoredSettings): Promise<MethodOffer> {
    if (mode === 'test') {
      return TEST_OFFER;
    }
    const [stored, card, pix] = await Promise.all([
      settings ?? this.readSettings(merchantId),
      this.port.connected('CARD', merchantId, mode),
      this.port.connected('PIX', merchantId, mode),
    ]);
    const facts: SettlementFacts = { mode, settings: stored, connected: { card, pix }, chains: this.port };
    return { settings: stored, whyNot: (method) => whyUnavailable(method, facts) };
  }

  private async readSettings(merchantId: string): Promise<StoredSettings> {
    return readStoredSettings(await this.uow.read.merchants.getSettings(merchantId));
  }
}
