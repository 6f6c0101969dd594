import type { Mode } from '../../../domain/merchants/merchant.ts';
import type { BusinessProfile, FieldProblem, ProfileField } from '../../../domain/merchants/merchant-profile.ts';
import type { PaymentSettingsField, PaymentSettingsView } from '../../../domain/merchants/payment-settings.ts';
import type { MethodOffer, Unavailable } from '../../../domain/payment-methods/method-availability.ts';
import type { PaymentMethod, PaymentMethodType } from '../../../domain/payment-methods/payment-method.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import { csrfField, problems } from './layout.ts';

/** Sizes the logo form states; the checks themselves are in domain/merchants/logo-image.ts. */
export const LOGO_LIMITS_TEXT = 'PNG or JPEG, at most 256 KB and 2048 × 2048 pixels.';

export type FieldErrors<F extends string> = Partial<Record<F, string[]>>;

/** The checks' problems as the forms show them: each field's messages beside it. */
export function fieldErrors<F extends string>(list: readonly FieldProblem<F>[]): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const problem of list) {
    errors[problem.field] = [...(errors[problem.field] ?? []), problem.message];
  }
  return errors;
}

/**
 * A labelled text input with its hint and error, as the other dashboard forms write them. A
 * `password` field is for a secret: give it an empty value, so a page never sends one back.
 */
export function textField<F extends string>(
  key: F,
  label: string,
  value: string,
  errors: FieldErrors<F>,
  opts: {
    hint?: string;
    type?: 'text' | 'email' | 'password';
    maxlength?: number;
    placeholder?: string;
    autocomplete?: string;
    mono?: boolean;
  } = {},
): SafeHtml {
  const error = errors[key];
  const described = [...(opts.hint ? [`${key}-hint`] : []), ...(error ? [`${key}-error`] : [])];
  return html`<div class="field${error ? ' field--error' : ''}"><label for="${key}">${label}</label>
${opts.hint ? html`<span class="hint" id="${key}-hint">${opts.hint}</span>` : null}${error ? html`<span class="field-error" id="${key}-error" data-test="error-${key}">${error.join(' ')}</span>` : null}
<input id="${key}" name="${key}" type="${opts.type ?? 'text'}" value="${value}" autocomplete="${opts.autocomplete ?? 'off'}" spellcheck="false"${opts.mono ? html` class="mono"` : null}${opts.maxlength ? html` maxlength="${opts.maxlength}"` : null}${opts.placeholder ? html` placeholder="${opts.placeholder}"` : null}${described.length > 0 ? html` aria-describedby="${described.join(' ')}"` : null}${error ? html` aria-invalid="true"` : null}></div>`;
}

const readOnlyNote = (role: string) =>
  html`<p class="notice" role="note" data-test="read-only">Your role (${role}) can see these settings; an owner or an admin can change them.</p>`;

// ---- Business profile -------------------------------------------------------------------------

export type ProfileFormValues = Record<ProfileField, string>;

export type ProfilePageModel = {
  base: string;
  csrf: string;
  canWrite: boolean;
  role: string;
  profile: BusinessProfile;
  /** The logo's address on our origin (what the checkout shows), or null. */
  logoSrc: string | null;
  values: ProfileFormValues;
  errors: FieldErrors<ProfileField>;
  logoError: string | null;
  saved: 'profile' | 'logo' | 'logo-removed' | null;
};

export function profileValuesOf(profile: BusinessProfile): ProfileFormValues {
  return {
    display_name: profile.storedDisplayName ?? '',
    support_email: profile.supportEmail ?? '',
    accent_color: profile.accentColor ?? '',
  };
}

const SAVED_TEXT = {
  profile: 'Business profile saved. Payers see it from now on.',
  logo: 'Logo saved. Payers see it from now on.',
  'logo-removed': 'Logo removed.',
} as const;

export function profilePage(model: ProfilePageModel): SafeHtml {
  const { profile: p, values: v, errors } = model;
  const all = Object.values(errors).flat();
  const logo = p.logo;
  const preview = html`<section class="card" aria-labelledby="preview-title" data-test="profile-preview">
<h2 id="preview-title">${tr('What payers see')}</h2>
<div class="payee">
${model.logoSrc && logo ? html`<img class="payee-logo" src="${model.logoSrc}" width="${logo.width}" height="${logo.height}" alt="" data-test="logo-preview">` : null}
<p class="payee-name"><span class="hint">${tr('Payment to')}</span> <strong data-test="preview-name">${p.displayName}</strong></p>
</div>
<dl class="facts">
<dt>${tr('Support e-mail')}</dt><dd data-test="current-support-email">${p.supportEmail ?? 'Not set'}</dd>
<dt>${tr('Accent colour')}</dt><dd data-test="current-accent">${p.accentColor ? html`<code>${p.accentColor}</code>` : 'Not set (the checkout’s blue)'}</dd>
<dt>${tr('Logo')}</dt><dd>${logo ? `${logo.content_type === 'image/png' ? 'PNG' : 'JPEG'}, ${logo.width} × ${logo.height} pixels` : 'None'}</dd>
</dl>
</section>`;
  const intro = html`<h1>${tr('Business profile')}</h1>
<p>${tr('What payers see of your business on the checkout page and in the e-mails sent to them. Live and test mode share one profile.')}</p>
${model.saved ? html`<p class="notice" role="status" data-test="saved">${SAVED_TEXT[model.saved]}</p>` : null}`;
  if (!model.canWrite) {
    return html`${intro}${readOnlyNote(model.role)}${preview}`;
  }
  return html`${intro}
${problems([...all, ...(model.logoError ? [model.logoError] : [])])}
${preview}
<section aria-labelledby="details-title"><h2 id="details-title">${tr('Name, support e-mail and colour')}</h2>
<form method="post" action="${model.base}/settings/profile" novalidate data-test="profile-form">${csrfField(model.csrf)}
${textField('display_name', 'Display name', v.display_name, errors, { maxlength: 100, autocomplete: 'organization', hint: `Shown to payers as the business they pay. Leave empty to use your account name, “${p.merchantName}”.` })}
${textField('support_email', 'Support e-mail', v.support_email, errors, { type: 'email', maxlength: 254, autocomplete: 'email', hint: 'Where payers can write about a payment: shown on the checkout and in e-mails. Leave empty for none.' })}
${textField('accent_color', 'Accent colour', v.accent_color, errors, { maxlength: 7, placeholder: '#0b57d0', mono: true, hint: 'Written #rrggbb, for example #0b57d0. Colours the checkout’s buttons; their text stays readable on it. Leave empty for the checkout’s blue.' })}
<p class="toolbar"><button type="submit" data-test="save-profile">${tr('Save profile')}</button></p>
</form></section>
<section aria-labelledby="logo-title"><h2 id="logo-title">${tr('Logo')}</h2>
<form method="post" action="${model.base}/settings/profile/logo" enctype="multipart/form-data" data-test="logo-form">${csrfField(model.csrf)}
<div class="field${model.logoError ? ' field--error' : ''}"><label for="logo">${tr('Logo file')}</label>
<span class="hint" id="logo-hint">${LOGO_LIMITS_TEXT} It is checked to be a whole image of that kind, whatever the file is called, and served from this site.</span>
${model.logoError ? html`<span class="field-error" id="logo-error" data-test="error-logo">${model.logoError}</span>` : null}
<input id="logo" name="logo" type="file" accept="image/png,image/jpeg" aria-describedby="logo-hint${model.logoError ? ' logo-error' : ''}"${model.logoError ? html` aria-invalid="true"` : null}></div>
<p class="toolbar"><button type="submit" data-test="upload-logo">${tr('Upload logo')}</button></p>
</form>
${
  logo
    ? html`<p class="toolbar"><a class="button button--secondary" href="${model.base}/settings/profile/logo/remove" data-test="remove-logo">${tr('Remove logo')}</a></p>`
    : null
}
</section>`;
}

// ---- Payment settings -------------------------------------------------------------------------

export type PaymentFormValues = Record<PaymentSettingsField, string>;

/** How the dashboard names each field, in its labels and in the shared checks' messages. */
export const PAYMENT_FIELD_LABELS: Readonly<Record<PaymentSettingsField, string>> = {
  pix_key: 'PIX key',
  pix_name: 'PIX name',
  pix_city: 'PIX city',
  btc_xpub: 'Bitcoin extended public key',
  btc_network: 'Bitcoin network',
  evm_xpub: 'EVM extended public key',
  bank_name: 'Bank name',
  bank_holder: 'Account holder',
  bank_account: 'Account number',
  bank_routing: 'Routing or branch code',
};

export const PAYMENT_FIELDS = Object.keys(PAYMENT_FIELD_LABELS) as PaymentSettingsField[];

export function paymentValuesOf(view: PaymentSettingsView): PaymentFormValues {
  const s = view.stored;
  return {
    pix_key: s.pix?.key ?? '',
    pix_name: s.pix?.merchant_name ?? '',
    pix_city: s.pix?.city ?? '',
    btc_xpub: s.crypto?.btc_xpub ?? '',
    btc_network: s.crypto?.btc_network ?? 'mainnet',
    evm_xpub: s.crypto?.evm_xpub ?? '',
    bank_name: s.bank?.bank_name ?? '',
    bank_holder: s.bank?.account_holder ?? '',
    bank_account: s.bank?.account_number ?? '',
    bank_routing: s.bank?.routing ?? '',
  };
}

/** One line of what live payers are offered: a method type, or one coin on one network. */
export type OfferRow = { key: string; label: string; reason: Unavailable | null };

/**
 * The catalogue grouped as a merchant thinks of it: cards, PIX, bank transfers and cash each as
 * one line, crypto per coin and network. A line is offered when any of its methods is.
 */
export function offerRows(methods: readonly PaymentMethod[], offer: MethodOffer): OfferRow[] {
  const rows = new Map<string, OfferRow>();
  for (const method of methods) {
    const crypto = method.type === 'CRYPTO_ONCHAIN' && method.network;
    const key = crypto ? `${method.currency.toLowerCase()}-${method.network?.id}` : method.type.toLowerCase();
    const reason = offer.whyNot(method);
    const row = rows.get(key);
    if (!row) {
      const label = crypto
        ? tr('{currency} on {network}', { currency: method.currency, network: method.network?.name ?? '' })
        : typeLabel(method.type);
      rows.set(key, { key, label, reason });
    } else if (reason === null) {
      row.reason = null;
    }
  }
  return [...rows.values()];
}

function typeLabel(type: PaymentMethodType): string {
  switch (type) {
    case 'CARD':
      return tr('Cards');
    case 'PIX':
      return 'PIX';
    case 'BANK_TRANSFER':
      return tr('Bank transfer');
    case 'CASH':
      return tr('Cash');
    case 'CRYPTO_ONCHAIN':
      return tr('Crypto');
  }
}

/** What a merchant can do about a reason, in the dashboard's words (the API says it in its own). */
function reasonText(reason: Unavailable): string {
  const p = reason.params;
  switch (reason.code) {
    case 'method_disabled':
      return tr('Disabled on this server by its operator.');
    case 'card_connector_missing':
      return tr('Connect your Stripe account under Payment connections to take cards.');
    case 'pix_key_missing':
      return tr('Add a PIX key below.');
    case 'bank_details_missing':
      return tr('Add your bank details below.');
    case 'cash_network_missing':
      return tr('No voucher network is connected, so cash is not offered.');
    case 'network_not_watched':
      return tr('This server does not watch {network} (operator: see docs/operations.md).', {
        network: p.network ?? '',
      });
    case 'token_disabled':
      return tr('This server does not watch {currency} on {network} (operator: see docs/operations.md).', {
        currency: p.currency ?? '',
        network: p.network ?? '',
      });
    case 'xpub_missing':
      return p.key === 'bitcoin'
        ? tr('Add your Bitcoin extended public key below; this server watches Bitcoin {watched}.', {
            watched: p.watched ?? '',
          })
        : tr('Add your EVM extended public key below; this server watches {network}.', { network: p.network ?? '' });
    case 'btc_network_mismatch':
      return tr(
        'Your Bitcoin key is for {keyNetwork}, and this server watches Bitcoin {watched}: save a {watched} key below.',
        {
          keyNetwork: p.keyNetwork ?? '',
          watched: p.watched ?? '',
        },
      );
  }
}

/** Live mode: each line, offered or what it needs. Test mode: one line saying every method is offered. */
function offered(model: PaymentSettingsPageModel): SafeHtml {
  if (!model.offers) {
    return html`<p class="notice" role="note" data-test="test-offers-all">${tr('Test mode offers payers every method. Live mode offers only what can take real money: the live page says what each method needs.')}</p>`;
  }
  const rows = model.offers.map(
    (row) =>
      html`<tr data-test="offer-${row.key}" data-offered="${row.reason ? 'no' : 'yes'}"><th scope="row">${row.label}</th><td>${row.reason ? reasonText(row.reason) : html`<span class="badge" data-test="offered">${tr('Offered')}</span>`}</td></tr>`,
  );
  return html`<div class="table-wrap" tabindex="0"><table data-test="live-offers"><caption>${tr('What live payers are offered')}</caption>
<tbody>
${rows}
</tbody></table></div>`;
}

export type PaymentSettingsPageModel = {
  base: string;
  csrf: string;
  canWrite: boolean;
  role: string;
  mode: Mode;
  view: PaymentSettingsView;
  /** Live mode: what live payers are offered; null in test mode, which offers every method. */
  offers: OfferRow[] | null;
  values: PaymentFormValues;
  errors: FieldErrors<PaymentSettingsField>;
  saved: boolean;
};

const testDefaultBadge = html` <span class="badge" data-test="test-default">${tr('test default')}</span>`;

/** What a checkout of this mode uses now, method by method. */
function inUse(model: PaymentSettingsPageModel): SafeHtml {
  const { effective: e, fromTestDefaults: d } = model.view;
  const none = model.mode === 'live' ? 'Not set up: payers are not offered this method.' : 'Not set up.';
  const row = (method: string, key: string, value: SafeHtml | string | null, fromDefault: boolean) =>
    html`<tr data-test="in-use-${key}"><th scope="row">${method}</th><td>${value ?? none}${fromDefault ? testDefaultBadge : null}</td></tr>`;
  return html`<div class="table-wrap" tabindex="0"><table data-test="in-use"><caption>In use now by ${model.mode} checkouts</caption>
<tbody>
${row('PIX', 'pix', e.pix ? html`<code class="mono">${e.pix.key}</code> (${e.pix.merchantName}, ${e.pix.city})` : null, d.pix)}
${row('Bitcoin', 'btc', e.crypto?.btcXpub ? html`<code class="mono">${e.crypto.btcXpub}</code> (${e.crypto.btcNetwork})` : null, d.crypto)}
${row('EVM chains', 'evm', e.crypto?.evmXpub ? html`<code class="mono">${e.crypto.evmXpub}</code>` : null, d.crypto)}
${row('Bank transfer', 'bank', e.bank ? `${e.bank.accountHolder}, ${e.bank.bankName}, account ${e.bank.accountNumber} (${e.bank.routing})` : null, d.bank)}
</tbody></table></div>`;
}

export function paymentSettingsPage(model: PaymentSettingsPageModel): SafeHtml {
  const { values: v, errors } = model;
  const all = Object.values(errors).flat();
  const f = (key: PaymentSettingsField, hint?: string, mono = false) =>
    textField(key, PAYMENT_FIELD_LABELS[key], v[key], errors, { maxlength: 200, mono, ...(hint ? { hint } : {}) });
  const networkError = errors.btc_network;
  const intro = html`<h1>${tr('Payment settings')}</h1>
<p>${tr('Where the money of PIX, crypto and bank-transfer payments goes: payers pay your accounts directly. Live and test mode share these settings.')}</p>
${model.mode === 'test' ? html`<p class="notice" role="note" data-test="test-defaults-note">${tr('In test mode a method you have not set up uses working test values, so every method can be tried. Nobody should send real money to them.')}</p>` : null}
${model.saved ? html`<p class="notice" role="status" data-test="saved">${tr('Payment settings saved. New payments use them from now on.')}</p>` : null}
${offered(model)}
${inUse(model)}`;
  if (!model.canWrite) {
    return html`${intro}${readOnlyNote(model.role)}`;
  }
  return html`${intro}
${problems(all)}
<form method="post" action="${model.base}/settings/payments" novalidate data-test="payment-settings-form">${csrfField(model.csrf)}
<p class="hint">${tr('Leave every field of a method empty to remove it. Values are checked the way the checkout will use them.')}</p>
<fieldset><legend>PIX</legend>
${f('pix_key', 'CPF, CNPJ, +55 phone, e-mail or random key (EVP).', true)}
${f('pix_name', 'Your name as the payer’s bank app shows it (in the BR Code).')}
${f('pix_city', 'Your city (in the BR Code).')}
</fieldset>
<fieldset><legend>${tr('Bitcoin')}</legend>
${f('btc_xpub', 'Account-level BIP84 zpub or vpub (xpub and tpub also work). Never a private key.', true)}
<div class="field${networkError ? ' field--error' : ''}"><label for="btc_network">${PAYMENT_FIELD_LABELS.btc_network}</label>
${networkError ? html`<span class="field-error" id="btc_network-error" data-test="error-btc_network">${networkError.join(' ')}</span>` : null}
<select id="btc_network" name="btc_network"${networkError ? html` aria-invalid="true" aria-describedby="btc_network-error"` : null}>${(
    ['mainnet', 'testnet'] as const
  ).map((n) => html`<option value="${n}"${v.btc_network === n ? html` selected` : null}>${n}</option>`)}</select></div>
</fieldset>
<fieldset><legend>${tr('EVM chains')}</legend>
${f('evm_xpub', 'Account-level xpub at m/44’/60’/0’. Never a private key.', true)}
</fieldset>
<fieldset><legend>${tr('Bank transfer')}</legend>
${f('bank_name')}
${f('bank_holder')}
${f('bank_account')}
${f('bank_routing')}
</fieldset>
<p class="toolbar"><button type="submit" data-test="save-payment-settings">${tr('Save payment settings')}</button></p>
</form>`;
}
