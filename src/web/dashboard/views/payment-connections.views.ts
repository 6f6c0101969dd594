import type { PixConnectionSettings, ShownConnection } from '../../../domain/connectors/connection.ts';
import type { ConnectionCheck } from '../../../domain/connectors/connection-check.service.ts';
import type { PixProfile } from '../../../domain/connectors/pix-connector.ts';
import { PIX_PROFILES } from '../../../domain/connectors/pix-connector.ts';
import type { Mode } from '../../../domain/merchants/merchant.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import { csrfField, problems, time } from './layout.ts';
import type { FieldErrors } from './settings.views.ts';
import { textField } from './settings.views.ts';

export type StripeField = 'secret_key' | 'publishable_key' | 'webhook_secret';

/** Stripe's part of the page: the connection of this mode, or the form to make one. */
export type StripeSectionModel = {
  base: string;
  csrf: string;
  mode: Mode;
  connection: ShownConnection | null;
  /** The publishable key as sent (it is public); the secret fields are always empty again. */
  publishableKey: string;
  problems: readonly string[];
  errors: FieldErrors<StripeField>;
  /** What "Test connection" found, on the page that answers it. */
  check: ConnectionCheck | null;
};

/**
 * The page: one section per processor, each with its own model, so API Pix takes its place
 * beside Stripe without changing Stripe's.
 */
export type ConnectionsPageModel = {
  mode: Mode;
  notice: string | null;
  /** Shown as a warning: what a change left for the merchant to do at the processor. */
  warning: string | null;
  stripe: StripeSectionModel;
  pix: PixSectionModel;
};

export type PixField =
  | 'base_url'
  | 'token_url'
  | 'client_id'
  | 'client_secret'
  | 'certificate'
  | 'private_key'
  | 'certificate_password'
  | 'ca'
  | 'pix_key'
  | 'profile';

/** What the PIX form sends back after a refusal: what is not secret. Secrets and files are chosen again. */
export type PixFormValues = Record<'base_url' | 'token_url' | 'client_id' | 'pix_key' | 'profile', string>;

/** API Pix's part of the page: the connection of this mode, or the form to make one. */
export type PixSectionModel = {
  base: string;
  csrf: string;
  mode: Mode;
  connection: ShownConnection | null;
  values: PixFormValues;
  problems: readonly string[];
  errors: FieldErrors<PixField>;
  check: ConnectionCheck | null;
};

export function connectionsPage(model: ConnectionsPageModel): SafeHtml {
  return html`<h1>${tr('Payment connections')}</h1>
<p>${tr('Your own processor accounts: payers pay through them, and the money goes from the processor to you. Cobro keeps the keys sealed and never shows them again.')}</p>
<p class="notice" role="note" data-test="mode-note">${
    model.mode === 'test'
      ? tr(
          'This page connects test mode: use test keys here, and your PSP’s sandbox. Live keys and your PSP’s production access go on the live dashboard’s page.',
        )
      : tr(
          'This page connects live mode: use live keys here, and your PSP’s production access. Test keys and your PSP’s sandbox go on the test dashboard’s page.',
        )
  }</p>
${model.notice ? html`<p class="notice" role="status" data-test="notice">${model.notice}</p>` : null}
${model.warning ? html`<div class="error-summary" role="alert" data-test="warning"><p>${model.warning}</p></div>` : null}
${stripeSection(model.stripe)}
${pixSection(model.pix)}`;
}

function stripeSection(model: StripeSectionModel): SafeHtml {
  return html`<section class="card" aria-labelledby="stripe-title" data-test="connection-stripe">
<h2 id="stripe-title">Stripe</h2>
<p>${tr('Card payments through your Stripe account, with the card fields hosted by Stripe.')}</p>
${model.connection ? stripeConnected(model, model.connection) : stripeForm(model)}
</section>`;
}

function stripeConnected(model: StripeSectionModel, c: ShownConnection): SafeHtml {
  const path = `${model.base}/settings/connections/stripe`;
  return html`<dl class="facts" data-test="stripe-connection">
<dt>${tr('Account')}</dt><dd><code class="mono" data-test="account-id">${c.accountId}</code>${c.accountName ? html` (${c.accountName})` : null}</dd>
<dt>${tr('Mode')}</dt><dd data-test="connection-mode">${c.mode === 'live' ? tr('Live') : tr('Test')}</dd>
<dt>${tr('Secret key')}</dt><dd><code class="mono" data-test="secret-key-masked">${c.secretKeyMasked ?? tr('Cannot be read with this server’s secrets key: disconnect and connect again.')}</code></dd>
<dt>${tr('Publishable key')}</dt><dd><code class="mono" data-test="publishable-key">${c.publishableKey}</code></dd>
<dt>${tr('Webhook URL')}</dt><dd><code class="mono" data-test="webhook-url">${c.webhookUrl}</code></dd>
<dt>${tr('Webhook endpoint')}</dt><dd data-test="webhook-endpoint">${
    c.webhookEndpointId
      ? html`<code class="mono">${c.webhookEndpointId}</code> ${tr('(created by Cobro in your Stripe account)')}`
      : tr('Yours: make Stripe send the card events to the webhook URL (docs/connectors/stripe.md lists them).')
  }</dd>
<dt>${tr('Connected')}</dt><dd>${time(c.createdAt)}</dd>
<dt>${tr('Last event received')}</dt><dd data-test="last-event">${c.lastEventAt === null ? tr('None yet') : time(c.lastEventAt)}</dd>
<dt>${tr('Last error')}</dt><dd data-test="last-error">${c.lastError ?? tr('None')}</dd>
</dl>
${checkResult(model.check, (account) => tr('Connection works: Stripe accepted the key for account {account}.', { account }))}
<div class="toolbar">
<form method="post" action="${path}/test" class="inline-form">${csrfField(model.csrf)}<button type="submit" data-test="test-connection">${tr('Test connection')}</button></form>
<a class="button button--secondary" href="${path}/remove" data-test="disconnect">${tr('Disconnect')}</a>
</div>`;
}

/** What Test connection found; `prefix` keeps each section's result apart on the page. */
function checkResult(
  check: ConnectionCheck | null,
  works: (accountId: string) => string,
  prefix = '',
): SafeHtml | null {
  if (!check) {
    return null;
  }
  if (check.ok) {
    return html`<p class="notice" role="status" data-test="${prefix}check-ok">${works(check.accountId)}</p>`;
  }
  // The reason is the connector's own (a refused key, no answer, another account), never a secret.
  return html`<div class="error-summary" role="alert" data-test="${prefix}check-failed"><p>${tr('The test failed: {reason}.', { reason: check.message })}</p></div>`;
}

function stripeForm(model: StripeSectionModel): SafeHtml {
  const { errors } = model;
  const live = model.mode === 'live';
  return html`<p data-test="not-connected">${live ? tr('Not connected in live mode.') : tr('Not connected in test mode.')}</p>
${problems(model.problems)}
<form method="post" action="${model.base}/settings/connections/stripe" novalidate data-test="stripe-connect-form">${csrfField(model.csrf)}
<p class="hint">${tr('Your keys are in the Stripe dashboard, under Developers → API keys. Cobro checks them with one call to Stripe and creates the webhook endpoint before it stores anything.')}</p>
${textField('secret_key', tr('Secret key'), '', errors, {
  type: 'password',
  maxlength: 300,
  mono: true,
  hint: live
    ? tr('sk_live_… or a restricted key rk_live_…. Never shown again.')
    : tr('sk_test_… or a restricted key rk_test_…. Never shown again.'),
})}
${textField('publishable_key', tr('Publishable key'), model.publishableKey, errors, {
  maxlength: 300,
  mono: true,
  hint: live ? 'pk_live_…' : 'pk_test_…',
})}
${textField('webhook_secret', tr('Webhook signing secret (optional)'), '', errors, {
  type: 'password',
  maxlength: 300,
  mono: true,
  hint: tr(
    'Only if you created the webhook endpoint yourself in Stripe: its signing secret (whsec_…). Leave it empty and Cobro creates the endpoint.',
  ),
})}
<p class="toolbar"><button type="submit" data-test="connect-stripe">${tr('Connect Stripe')}</button></p>
</form>`;
}

function profileName(profile: PixProfile): string {
  switch (profile) {
    case 'bcb':
      return tr('The Central Bank’s specification as written (bcb)');
    case 'efi':
      return 'Efí Pay (efi)';
    case 'inter':
      return 'Banco Inter (inter)';
  }
}

function pixSection(model: PixSectionModel): SafeHtml {
  return html`<section class="card" aria-labelledby="pix-title" data-test="connection-pix">
<h2 id="pix-title">${tr('PIX through your bank (API Pix)')}</h2>
<p>${tr('PIX charges at your own bank or PSP, through the Central Bank’s API Pix: each order gets its own code, and Cobro learns from your PSP when it is paid.')}</p>
${model.connection?.pix ? pixConnected(model, model.connection, model.connection.pix) : pixForm(model)}
</section>`;
}

function pixConnected(model: PixSectionModel, c: ShownConnection, pix: PixConnectionSettings): SafeHtml {
  const path = `${model.base}/settings/connections/pix`;
  return html`<dl class="facts" data-test="pix-connection">
<dt>${tr('PIX key')}</dt><dd><code class="mono" data-test="pix-key">${pix.pixKey}</code></dd>
<dt>${tr('Mode')}</dt><dd data-test="pix-mode">${c.mode === 'live' ? tr('Live') : tr('Test')}</dd>
<dt>${tr('Profile')}</dt><dd data-test="pix-profile">${profileName(pix.profile)}</dd>
<dt>${tr('API Pix address')}</dt><dd><code class="mono" data-test="pix-base-url">${pix.baseUrl}</code></dd>
<dt>${tr('Token address')}</dt><dd><code class="mono" data-test="pix-token-url">${pix.tokenUrl}</code></dd>
<dt>${tr('Client ID')}</dt><dd><code class="mono" data-test="pix-client-id">${pix.clientId}</code></dd>
<dt>${tr('Client secret and certificate')}</dt><dd data-test="pix-secrets">${tr('Kept sealed; never shown.')}</dd>
<dt>${tr('Webhook URL')}</dt><dd><code class="mono" data-test="pix-webhook-url">${c.webhookUrl}</code> <span class="hint">${tr('(registered at your PSP for the PIX key; notifications arrive at it and at its /pix)')}</span></dd>
<dt>${tr('Connected')}</dt><dd>${time(c.createdAt)}</dd>
<dt>${tr('Last notification received')}</dt><dd data-test="pix-last-notification">${c.lastEventAt === null ? tr('None yet') : time(c.lastEventAt)}</dd>
<dt>${tr('Last error')}</dt><dd data-test="pix-last-error">${c.lastError ?? tr('None')}</dd>
</dl>
${checkResult(model.check, (pixKey) => tr('Connection works: your PSP gave a token for these credentials and notifies Cobro’s webhook URL for the PIX key {key}.', { key: pixKey }), 'pix-')}
<div class="toolbar">
<form method="post" action="${path}/test" class="inline-form">${csrfField(model.csrf)}<button type="submit" data-test="pix-test-connection">${tr('Test connection')}</button></form>
<a class="button button--secondary" href="${path}/remove" data-test="pix-disconnect">${tr('Disconnect')}</a>
</div>`;
}

function pixForm(model: PixSectionModel): SafeHtml {
  const { errors, values } = model;
  const live = model.mode === 'live';
  const fileField = (key: PixField, label: string, hint: string, accept: string) => {
    const error = errors[key];
    return html`<div class="field${error ? ' field--error' : ''}"><label for="${key}">${label}</label>
<span class="hint" id="${key}-hint">${hint}</span>${error ? html`<span class="field-error" id="${key}-error" data-test="error-${key}">${error.join(' ')}</span>` : null}
<input id="${key}" name="${key}" type="file" accept="${accept}" aria-describedby="${key}-hint${error ? ` ${key}-error` : ''}"${error ? html` aria-invalid="true"` : null}></div>`;
  };
  const profileError = errors.profile;
  return html`<p data-test="pix-not-connected">${live ? tr('Not connected in live mode.') : tr('Not connected in test mode.')}</p>
${problems(model.problems)}
<form method="post" action="${model.base}/settings/connections/pix" enctype="multipart/form-data" novalidate data-test="pix-connect-form">${csrfField(model.csrf)}
<p class="hint">${
    live
      ? tr(
          'Use the production credentials your PSP issued for its API Pix. Cobro asks your PSP for a token with them and registers its webhook for your PIX key before it stores anything.',
        )
      : tr(
          'Use the credentials of your PSP’s homologation (test) environment. Cobro asks your PSP for a token with them and registers its webhook for your PIX key before it stores anything.',
        )
  }</p>
<div class="field${profileError ? ' field--error' : ''}"><label for="profile">${tr('Profile')}</label>
<span class="hint" id="profile-hint">${tr('Where your PSP departs from the Central Bank’s specification, as it documents it. Any other PSP: bcb.')}</span>${profileError ? html`<span class="field-error" id="profile-error" data-test="error-profile">${profileError.join(' ')}</span>` : null}
<select id="profile" name="profile" aria-describedby="profile-hint${profileError ? ' profile-error' : ''}">${PIX_PROFILES.map((p) => html`<option value="${p}"${values.profile === p ? html` selected` : null}>${profileName(p)}</option>`)}</select></div>
${textField('base_url', tr('API Pix address'), values.base_url, errors, {
  maxlength: 500,
  mono: true,
  placeholder: 'https://',
  hint: tr('Your PSP’s API Pix root, https://… (with efi or inter, the host alone is enough).'),
})}
${textField('token_url', tr('Token address (optional)'), values.token_url, errors, {
  maxlength: 500,
  mono: true,
  hint: tr('Only if your PSP gives one apart; otherwise the profile’s.'),
})}
${textField('client_id', tr('Client ID'), values.client_id, errors, { maxlength: 255, mono: true })}
${textField('client_secret', tr('Client secret'), '', errors, {
  type: 'password',
  maxlength: 1024,
  mono: true,
  hint: tr('Never shown again.'),
})}
${fileField('certificate', tr('Client certificate'), tr('The certificate your PSP issued with these credentials: a PEM file (.crt, .pem), or a PKCS#12 bundle (.p12, .pfx) holding the certificate and its key.'), '.crt,.pem,.cer,.p12,.pfx')}
${fileField('private_key', tr('Private key (PEM certificate only)'), tr('The PEM private key (.key, .pem) of a PEM certificate. Leave it empty with a PKCS#12 bundle.'), '.key,.pem')}
${textField('certificate_password', tr('PKCS#12 password (optional)'), '', errors, {
  type: 'password',
  maxlength: 1024,
  hint: tr('Only for a PKCS#12 bundle that has one. Never shown again.'),
})}
${fileField('ca', tr('Your PSP’s CA certificate (optional)'), tr('Only if your PSP’s server certificate is not signed by a public authority (homologation hosts often are not): its CA certificate, PEM.'), '.crt,.pem,.cer')}
${textField('pix_key', tr('PIX key'), values.pix_key, errors, {
  maxlength: 77,
  mono: true,
  hint: tr('Your key at this PSP (e-mail, phone, CNPJ or random key): charges are made to it.'),
})}
<p class="toolbar"><button type="submit" data-test="connect-pix">${tr('Connect PIX')}</button></p>
</form>`;
}
