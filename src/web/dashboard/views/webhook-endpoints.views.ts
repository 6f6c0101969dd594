import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../../domain/webhooks/webhook.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import { back, notice } from './developers.views.ts';
import { deliveriesTable } from './events.views.ts';
import { csrfField, problems, time } from './layout.ts';

export function endpointListPage(input: {
  base: string;
  canWrite: boolean;
  endpoints: readonly WebhookEndpoint[];
  nextHref: string | null;
  notice: string | null;
}): SafeHtml {
  const { base } = input;
  return html`<h1>${tr('Webhook endpoints')}</h1>
${notice(input.notice)}
${input.canWrite ? html`<p class="toolbar"><a class="button" href="${base}/webhook_endpoints/new" data-test="new-endpoint">${tr('New endpoint')}</a></p>` : null}
<div class="table-wrap" tabindex="0"><table data-test="endpoints"><caption>${tr('Webhook endpoints, newest first')}</caption>
<thead><tr><th scope="col">URL</th><th scope="col">${tr('Description')}</th><th scope="col">${tr('Events')}</th><th scope="col">${tr('Status')}</th><th scope="col">${tr('Created')}</th></tr></thead>
<tbody>${
    input.endpoints.length === 0
      ? html`<tr><td colspan="5">${tr('No endpoints yet.')}</td></tr>`
      : input.endpoints.map(
          (e) => html`<tr data-test="endpoint">
<td class="mono"><a href="${base}/webhook_endpoints/${e.id}">${e.url}</a></td>
<td>${e.description ?? ''}</td>
<td>${eventTypesText(e)}</td>
<td>${enabledBadge(e)}</td>
<td>${time(e.createdAt)}</td>
</tr>`,
        )
  }</tbody></table></div>
${input.nextHref ? html`<p><a href="${input.nextHref}" rel="next">${tr('Next page')}</a></p>` : null}
<section class="card" aria-labelledby="pref-secret">
<h2 id="pref-secret">${tr('Preference webhooks')}</h2>
<p>${tr("Deliveries to a checkout preference's")} <code>status_changes_webhook</code> ${tr("are signed with the merchant's signing secret of this mode.")}</p>
${
  input.canWrite
    ? html`<p class="toolbar"><a class="button button--secondary" href="${base}/webhook_settings/secret" data-test="reveal-merchant-secret">${tr('Reveal signing secret')}</a>
<a class="button button--secondary" href="${base}/webhook_settings/rotate" data-test="rotate-merchant-secret">${tr('Rotate signing secret')}</a></p>`
    : html`<p class="hint">${tr('Your role cannot read the signing secret.')}</p>`
}
</section>
${back(`${base}/developers`, 'Back to Developers')}`;
}

const eventTypesText = (e: WebhookEndpoint): string => (e.eventTypes ? e.eventTypes.join(', ') : 'All events');

const enabledBadge = (e: WebhookEndpoint): SafeHtml =>
  e.enabled
    ? html`<span class="badge" data-status="ENABLED" data-test="endpoint-status">${tr('Enabled')}</span>`
    : html`<span class="badge" data-status="DISABLED" data-test="endpoint-status">${tr('Disabled')}</span>`;

export type EndpointFormValues = { url: string; description: string; eventTypes: readonly string[] };

export function endpointFormPage(input: {
  base: string;
  csrf: string;
  action: string;
  editing: WebhookEndpoint | null;
  values: EndpointFormValues;
  problems: readonly string[];
  eventTypes: readonly string[];
  cancelHref: string;
}): SafeHtml {
  const v = input.values;
  return html`<h1>${input.editing ? 'Edit endpoint' : 'New webhook endpoint'}</h1>
<form method="post" action="${input.action}" data-test="endpoint-form">${csrfField(input.csrf)}
${problems(input.problems)}
<div class="field"><label for="url">URL</label>
<input id="url" name="url" type="url" required maxlength="2048" value="${v.url}" aria-describedby="url-hint">
<p class="hint" id="url-hint">${tr('An https address on the public internet; events are POSTed to it, signed.')}</p></div>
<div class="field"><label for="description">${tr('Description')}</label>
<input id="description" name="description" maxlength="500" value="${v.description}"></div>
<fieldset class="field"><legend>${tr('Event types')}</legend>
<p class="hint">${tr('None checked: every event type, including types added later.')}</p>
${input.eventTypes.map(
  (type, i) =>
    html`<div><input type="checkbox" id="event-type-${i}" name="event_types" value="${type}"${v.eventTypes.includes(type) ? html` checked` : null}> <label for="event-type-${i}"><code>${type}</code></label></div>`,
)}
</fieldset>
<p class="toolbar"><button type="submit">${input.editing ? 'Save endpoint' : 'Create endpoint'}</button>
<a class="button button--secondary" href="${input.cancelHref}">${tr('Cancel')}</a></p>
</form>`;
}

export function secretShownPage(input: {
  heading: string;
  intro: string;
  secret: string;
  previousExpiresAt: number | null;
  backHref: string;
  backLabel: string;
}): SafeHtml {
  return html`<h1>${input.heading}</h1>
<p>${input.intro}</p>
<div class="notice" role="alert"><p><strong>${tr('Copy it now: this page is the only place it is shown.')}</strong></p></div>
<p><code class="secret" data-test="shown-secret">${input.secret}</code></p>
${input.previousExpiresAt !== null ? html`<p data-test="overlap">${tr('The previous secret keeps signing too (a second')} <code>v1,</code> ${tr('signature) until')} ${time(input.previousExpiresAt)}${tr(': update your receiver before then.')}</p>` : null}
${back(input.backHref, input.backLabel)}`;
}

export function endpointPage(input: {
  base: string;
  csrf: string;
  canWrite: boolean;
  endpoint: WebhookEndpoint;
  deliveries: readonly WebhookDelivery[];
  attempts: readonly WebhookAttempt[];
  notice: string | null;
}): SafeHtml {
  const { base, endpoint: e } = input;
  const path = `${base}/webhook_endpoints/${e.id}`;
  return html`<h1>${tr('Webhook endpoint')}</h1>
${notice(input.notice)}
<dl class="card" data-test="endpoint-record">
<dt>URL</dt><dd class="mono" data-test="endpoint-url">${e.url}</dd>
<dt>${tr('Description')}</dt><dd data-test="endpoint-description">${e.description ?? '—'}</dd>
<dt>${tr('Event types')}</dt><dd>${eventTypesText(e)}</dd>
<dt>${tr('Status')}</dt><dd>${enabledBadge(e)}${e.disabledReason ? html` (${e.disabledReason})` : null}</dd>
<dt>Id</dt><dd class="mono">${e.id}</dd>
<dt>${tr('Created')}</dt><dd>${time(e.createdAt)}</dd>
</dl>
${
  input.canWrite
    ? html`<div class="toolbar" data-test="endpoint-actions">
<a class="button button--secondary" href="${path}/edit" data-test="edit-endpoint">${tr('Edit')}</a>
${
  e.enabled
    ? html`<form method="post" action="${path}/test" class="inline-form">${csrfField(input.csrf)}<button type="submit" data-test="send-test">${tr('Send test event')}</button></form>
<form method="post" action="${path}/disable" class="inline-form">${csrfField(input.csrf)}<button type="submit" class="button--secondary" data-test="disable-endpoint">${tr('Disable')}</button></form>`
    : html`<form method="post" action="${path}/enable" class="inline-form">${csrfField(input.csrf)}<button type="submit" class="button--secondary" data-test="enable-endpoint">${tr('Enable')}</button></form>`
}
<a class="button button--secondary" href="${path}/rotate" data-test="rotate-endpoint">${tr('Rotate secret')}</a>
<a class="button button--secondary" href="${path}/delete" data-test="delete-endpoint">${tr('Delete')}</a>
</div>`
    : null
}
<section aria-labelledby="recent"><h2 id="recent">${tr('Recent deliveries')}</h2>
${deliveriesTable(base, input.deliveries, input.attempts, 'Latest deliveries to this endpoint', true)}
</section>
${back(`${base}/webhook_endpoints`, 'Back to webhook endpoints')}`;
}
