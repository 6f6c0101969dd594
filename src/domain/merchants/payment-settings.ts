import type { MerchantPaymentSettings } from '../payment-methods/payment-provider.ts';
import type { MerchantService } from './merchant.service.ts';
import type { Mode } from './merchant.ts';
import type { FieldProblem } from './merchant-profile.ts';
import type { SettingsPatch, StoredSettings } from './merchant-settings.ts';
import { effectiveSettings } from './merchant-settings.ts';

/**
 * Payment settings as the command line (`cobro settings set`) and the dashboard take them:
 * checked once, here, the way the checkout will use each value. The checks that need a
 * provider's code (PIX key formats, deriving an address from an extended public key) come
 * through `PaymentKeyChecks`, implemented in providers/ and wired in main.ts.
 */
export type PaymentKeyChecks = {
  /** CPF, CNPJ, +55 phone, e-mail or random key (EVP). */
  isPixKey(key: string): boolean;
  /** Null when the text can be written in a BR Code (ASCII once accents are folded), else why not. */
  pixTextProblem(text: string): string | null;
  /** Null when address 0 can be derived from `xpub` on `network`, else why not. */
  btcXpubProblem(xpub: string, network: 'mainnet' | 'testnet'): string | null;
  /** Null when address 0 can be derived from the account-level `xpub`, else why not. */
  evmXpubProblem(xpub: string): string | null;
};

/** The fields, named as the dashboard's form posts them (the command line's flags are these with dashes). */
export type PaymentSettingsField =
  | 'pix_key'
  | 'pix_name'
  | 'pix_city'
  | 'btc_xpub'
  | 'btc_network'
  | 'evm_xpub'
  | 'bank_name'
  | 'bank_holder'
  | 'bank_account'
  | 'bank_routing';

/** What was given: an absent field is not part of the change. */
export type PaymentSettingsInput = Partial<Record<PaymentSettingsField, string>>;

/** How a caller names a field in its messages (`--pix-key` on the command line, `PIX key` on a page). */
export type FieldNamer = (field: PaymentSettingsField) => string;

/** Free-text settings end up on payers' screens and in BR Codes; anything longer is a mistake. */
const MAX_TEXT = 200;
const TEXT_FIELDS: readonly PaymentSettingsField[] = [
  'pix_key',
  'pix_name',
  'pix_city',
  'btc_xpub',
  'evm_xpub',
  'bank_name',
  'bank_holder',
  'bank_account',
  'bank_routing',
];

/**
 * Checks what was given and builds the change it makes. A section is given by its leading
 * field (PIX key, Bitcoin key, EVM key, bank name); the fields it needs must come with it, and
 * fields of a section whose leading field is missing are refused rather than dropped.
 */
export function checkPaymentSettings(
  input: PaymentSettingsInput,
  checks: PaymentKeyChecks,
  name: FieldNamer,
): { patch: StoredSettings; problems: FieldProblem<PaymentSettingsField>[] } {
  const problems: FieldProblem<PaymentSettingsField>[] = [];
  const problem = (field: PaymentSettingsField, message: string) => problems.push({ field, message });
  const patch: StoredSettings = {};
  for (const field of TEXT_FIELDS) {
    const value = input[field];
    if (value !== undefined && value.length > MAX_TEXT) {
      problem(field, `${name(field)} must be at most ${MAX_TEXT} characters`);
    }
  }

  const pixKey = input.pix_key;
  if (pixKey !== undefined) {
    const pixName = input.pix_name;
    const city = input.pix_city;
    if (!checks.isPixKey(pixKey)) {
      problem('pix_key', `${name('pix_key')} must be a PIX key: CPF, CNPJ, +55 phone, e-mail or random key (EVP)`);
    }
    if (!pixName || !city) {
      problem(
        pixName ? 'pix_city' : 'pix_name',
        `${name('pix_key')} needs ${name('pix_name')} and ${name('pix_city')} (they appear in the BR Code)`,
      );
    } else {
      for (const [field, text] of [
        ['pix_name', pixName],
        ['pix_city', city],
      ] as const) {
        const why = checks.pixTextProblem(text);
        if (why !== null) {
          problem(field, `${name(field)}: ${why}`);
        }
      }
      patch.pix = { key: pixKey, merchant_name: pixName, city };
    }
  } else if (input.pix_name !== undefined || input.pix_city !== undefined) {
    problem('pix_key', `${name('pix_name')} and ${name('pix_city')} need ${name('pix_key')}`);
  }

  const network = input.btc_network ?? 'mainnet';
  if (network !== 'mainnet' && network !== 'testnet') {
    problem('btc_network', `${name('btc_network')} must be mainnet or testnet`);
  }
  const btc = input.btc_xpub;
  if (btc !== undefined && (network === 'mainnet' || network === 'testnet')) {
    const why = checks.btcXpubProblem(btc, network);
    if (why !== null) {
      problem('btc_xpub', `${name('btc_xpub')}: ${why}`);
    }
    patch.crypto = { ...patch.crypto, btc_xpub: btc, btc_network: network };
  }
  const evm = input.evm_xpub;
  if (evm !== undefined) {
    const why = checks.evmXpubProblem(evm);
    if (why !== null) {
      problem('evm_xpub', `${name('evm_xpub')}: ${why}`);
    }
    patch.crypto = { ...patch.crypto, evm_xpub: evm };
  }

  const bankName = input.bank_name;
  if (bankName !== undefined) {
    const holder = input.bank_holder;
    const account = input.bank_account;
    const routing = input.bank_routing;
    if (!holder || !account || !routing) {
      problem(
        !holder ? 'bank_holder' : !account ? 'bank_account' : 'bank_routing',
        `${name('bank_name')} needs ${name('bank_holder')}, ${name('bank_account')} and ${name('bank_routing')}`,
      );
    } else {
      patch.bank = { bank_name: bankName, account_holder: holder, account_number: account, routing };
    }
  } else if (input.bank_holder !== undefined || input.bank_account !== undefined || input.bank_routing !== undefined) {
    problem(
      'bank_name',
      `${name('bank_holder')}, ${name('bank_account')} and ${name('bank_routing')} need ${name('bank_name')}`,
    );
  }
  return { patch: problems.length > 0 ? {} : patch, problems };
}

/** What the payment settings page shows: what is stored, and what a checkout of this mode uses. */
export type PaymentSettingsView = {
  stored: StoredSettings;
  effective: MerchantPaymentSettings;
  /** Test mode: the sections a checkout takes from the test defaults because none is stored. */
  fromTestDefaults: { pix: boolean; crypto: boolean; bank: boolean };
};

export class PaymentSettingsService {
  constructor(
    private readonly merchants: MerchantService,
    private readonly checks: PaymentKeyChecks,
    private readonly testDefaults: MerchantPaymentSettings,
  ) {}

  /** Checks a change without making it (the command line then applies `patch` with MerchantService.updateSettings). */
  check(input: PaymentSettingsInput, name: FieldNamer): ReturnType<typeof checkPaymentSettings> {
    return checkPaymentSettings(input, this.checks, name);
  }

  async view(merchantId: string, mode: Mode): Promise<PaymentSettingsView> {
    const stored = await this.merchants.getSettings(merchantId);
    return {
      stored,
      effective: effectiveSettings(stored, mode, this.testDefaults),
      fromTestDefaults: {
        pix: mode === 'test' && !stored.pix,
        crypto: mode === 'test' && !stored.crypto,
        bank: mode === 'test' && !stored.bank,
      },
    };
  }

  /**
   * Makes the stored payment settings exactly `input` (the dashboard's form shows them all): a
   * section left out is removed. The business profile is kept. Nothing changes when a field is wrong.
   */
  async replace(
    merchantId: string,
    input: PaymentSettingsInput,
    name: FieldNamer,
  ): Promise<{ ok: true; stored: StoredSettings } | { ok: false; problems: FieldProblem<PaymentSettingsField>[] }> {
    const { patch, problems } = this.check(input, name);
    if (problems.length > 0) {
      return { ok: false, problems };
    }
    const change: SettingsPatch = {
      pix: patch.pix ?? null,
      bank: patch.bank ?? null,
      crypto: {
        btc_xpub: patch.crypto?.btc_xpub ?? null,
        btc_network: patch.crypto?.btc_network ?? null,
        evm_xpub: patch.crypto?.evm_xpub ?? null,
      },
    };
    return { ok: true, stored: await this.merchants.updateSettings(merchantId, change) };
  }
}
