import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StoredSettings } from '../../../src/domain/merchants/merchant-settings.ts';
import { DEFAULT_CATALOG } from '../../../src/domain/payment-methods/catalog.ts';
import type { SettlementFacts } from '../../../src/domain/payment-methods/method-availability.ts';
import { methodLabel, whyUnavailable } from '../../../src/domain/payment-methods/method-availability.ts';
import type { PaymentMethod } from '../../../src/domain/payment-methods/payment-method.ts';

// Live mode offers only what can settle for the merchant; test mode offers every enabled method.

const CATALOGUE: PaymentMethod[] = DEFAULT_CATALOG.map((entry) => ({
  ...entry,
  status: 'ENABLED',
  minAmountMinor: 1n,
  maxAmountMinor: 1_000_000n,
}));

function method(label: string): PaymentMethod {
  const found = CATALOGUE.find((m) => methodLabel(m) === label);
  assert.ok(found, `the catalogue has ${label}`);
  return found;
}

/** Chains watched as `watched` lists them: "bitcoin" a whole network, "ethereum:USDT" one token on it. */
function facts(
  settings: StoredSettings,
  watched: string[] = [],
  connected = { card: false, pix: false },
): SettlementFacts {
  return {
    mode: 'live',
    settings,
    connected,
    chains: {
      watches: (network, currency) =>
        watched.includes(network) ||
        watched.some((w) => w.startsWith(`${network}:`) && (currency === undefined || w === `${network}:${currency}`)),
      liveBitcoinNetwork: 'mainnet',
    },
  };
}

const codeOf = (label: string, f: SettlementFacts) => whyUnavailable(method(label), f)?.code ?? 'available';

const PIX = { key: 'ana@example.com', merchant_name: 'Ana Lima', city: 'Sao Paulo' };
const BANK = { bank_name: 'Banco Ejemplo', account_holder: 'Ana Lima', account_number: '0001234', routing: '0001' };

describe('which methods a merchant can offer', () => {
  test('test mode offers every enabled method, whatever is set up; a method the operator disabled is offered nowhere', () => {
    const test: SettlementFacts = { ...facts({}), mode: 'test' };
    assert.ok(CATALOGUE.every((m) => whyUnavailable(m, test) === null));
    const disabled = { ...method('PIX in BRL'), status: 'DISABLED' as const };
    assert.equal(whyUnavailable(disabled, test)?.code, 'method_disabled');
    assert.equal(whyUnavailable(disabled, facts({ pix: PIX }))?.code, 'method_disabled');
  });

  test('live mode with nothing set up offers nothing, and says why for each type', () => {
    const nothing = facts({});
    const reasons = Object.fromEntries(CATALOGUE.map((m) => [methodLabel(m), whyUnavailable(m, nothing)]));
    assert.ok(Object.values(reasons).every((r) => r !== null));
    assert.deepEqual(reasons['CARD in USD'], {
      code: 'card_connector_missing',
      message: 'Card payments need a card processor connection',
      params: {},
    });
    assert.deepEqual(reasons['PIX in BRL'], {
      code: 'pix_key_missing',
      message: 'Needs a PIX key in the payment settings',
      params: {},
    });
    assert.deepEqual(reasons['BANK_TRANSFER in USD'], {
      code: 'bank_details_missing',
      message: 'Needs your bank details in the payment settings',
      params: {},
    });
    assert.deepEqual(reasons['CASH in MXN'], {
      code: 'cash_network_missing',
      message: 'No voucher network is connected for cash payments',
      params: {},
    });
    assert.deepEqual(reasons['USDT on Ethereum'], {
      code: 'network_not_watched',
      message: 'This server does not watch Ethereum',
      params: { network: 'Ethereum' },
    });
    assert.equal(reasons['BTC on Bitcoin']?.code, 'network_not_watched');
  });

  test('a PIX key offers PIX, bank details offer bank transfers; cards and cash stay off without a connector or network', () => {
    const set = facts({ pix: PIX, bank: BANK });
    assert.equal(codeOf('PIX in BRL', set), 'available');
    assert.equal(codeOf('BANK_TRANSFER in USD', set), 'available');
    assert.equal(codeOf('BANK_TRANSFER in ARS', set), 'available');
    assert.equal(codeOf('CARD in BRL', set), 'card_connector_missing');
    assert.equal(codeOf('CASH in MXN', set), 'cash_network_missing');
  });

  test('a connector answers for its method: a card processor offers cards, an API Pix account offers PIX without a key', () => {
    const connected = facts({}, [], { card: true, pix: true });
    assert.equal(codeOf('CARD in USD', connected), 'available');
    assert.equal(codeOf('CARD in BRL', connected), 'available');
    assert.equal(codeOf('PIX in BRL', connected), 'available');
    assert.equal(codeOf('BANK_TRANSFER in USD', connected), 'bank_details_missing');
  });

  test('Bitcoin needs a watched network, the merchant’s key, and the key on the network watched', () => {
    assert.equal(codeOf('BTC on Bitcoin', facts({ crypto: { btc_xpub: 'zpub…' } })), 'network_not_watched');
    assert.deepEqual(whyUnavailable(method('BTC on Bitcoin'), facts({}, ['bitcoin'])), {
      code: 'xpub_missing',
      message: 'Needs your Bitcoin extended public key in the payment settings',
      params: { key: 'bitcoin', network: 'Bitcoin', watched: 'mainnet' },
    });
    assert.equal(codeOf('BTC on Bitcoin', facts({ crypto: { evm_xpub: 'xpub…' } }, ['bitcoin'])), 'xpub_missing');
    assert.deepEqual(
      whyUnavailable(
        method('BTC on Bitcoin'),
        facts({ crypto: { btc_xpub: 'vpub…', btc_network: 'testnet' } }, ['bitcoin']),
      ),
      {
        code: 'btc_network_mismatch',
        message: 'Your Bitcoin extended public key is for testnet, and this server watches Bitcoin mainnet',
        params: { keyNetwork: 'testnet', watched: 'mainnet' },
      },
    );
    assert.equal(
      codeOf('BTC on Bitcoin', facts({ crypto: { btc_xpub: 'zpub…', btc_network: 'mainnet' } }, ['bitcoin'])),
      'available',
    );
    // A key stored without its network is a mainnet key, as the checkout reads it in live mode.
    assert.equal(codeOf('BTC on Bitcoin', facts({ crypto: { btc_xpub: 'zpub…' } }, ['bitcoin'])), 'available');
  });

  test('a stablecoin needs its network and token watched and the merchant’s EVM key', () => {
    const evmKey = { crypto: { evm_xpub: 'xpub…' } };
    assert.equal(codeOf('USDC on Base', facts(evmKey)), 'network_not_watched');
    assert.deepEqual(whyUnavailable(method('USDC on Base'), facts({}, ['base'])), {
      code: 'xpub_missing',
      message: 'Needs your EVM extended public key in the payment settings',
      params: { key: 'evm', network: 'Base' },
    });
    assert.equal(codeOf('USDC on Base', facts({ crypto: { btc_xpub: 'zpub…' } }, ['base'])), 'xpub_missing');
    assert.equal(codeOf('USDC on Base', facts(evmKey, ['base'])), 'available');
    assert.equal(codeOf('USDT on Polygon', facts(evmKey, ['base'])), 'network_not_watched');
    // Ethereum watched for USDT only: USDC there is a token the watcher has disabled.
    assert.equal(codeOf('USDT on Ethereum', facts(evmKey, ['ethereum:USDT'])), 'available');
    assert.deepEqual(whyUnavailable(method('USDC on Ethereum'), facts(evmKey, ['ethereum:USDT'])), {
      code: 'token_disabled',
      message: 'This server does not watch USDC on Ethereum',
      params: { network: 'Ethereum', currency: 'USDC' },
    });
  });
});
