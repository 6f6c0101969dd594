import type { ConnectionCheck } from '../../../domain/connectors/connection.service.ts';
import type { ShownConnection } from '../../../domain/connectors/connection.ts';
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
};

export function connectionsPage(model: ConnectionsPageModel): SafeHtml {
  return html`<h1>${tr('Payment connections')}</h1>
<p>${tr('Your own processor accounts: payers pay through them, and the money goes from the processor to you. Cobro keeps the keys sealed and never shows them again.')}</p>
<p class="notice" role="note" data-test="mode-note">${
    model.mode === 'test'
      ? tr('This page connects test mode: use test keys here. Live keys go on the live dashboard’s page.')
      : tr('This page connects live mode: use live keys here. Test keys go on the test dashboard’s page.')
  }</p>
${model.notice ? html`<p class="notice" role="status" data-test="notice">${model.notice}</p>` : null}
${model.warning ? html`<div class="error-summary" role="alert" data-test="warning"><p>${model.warning}</p></div>` : null}
${stripeSection(model.stripe)}`;
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
${checkResult(model.check)}
<div class="toolbar">
<form method="post" action="${path}/test" class="inline-form">${csrfField(model.csrf)}<button type="submit" data-test="test-connection">${tr('Test connection')}</button></form>
<a class="button button--secondary" href="${path}/remove" data-test="disconnect">${tr('Disconnect')}</a>
</div>`;
}

function checkResult(check: ConnectionCheck | null): SafeHtml | null {
  if (!check) {
    return null;
  }
  if (check.ok) {
    return html`<p class="notice" role="status" data-test="check-ok">${tr('Connection works: Stripe accepted the key for account {account}.', { account: check.accountId })}</p>`;
  }
  // The reason is the connector's own (a refused key, no answer, another account), never a key.
  return html`<div class="error-summary" role="alert" data-test="check-failed"><p>${tr('The test failed: {reason}.', { reason: check.message })}</p></div>`;
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
