import type { DomainEvent } from '../../../domain/events/event.ts';
import type { ApiKey } from '../../../domain/merchants/merchant.ts';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../../domain/webhooks/webhook.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { formatTime, t as tr } from '../i18n.ts';
import { csrfField, problems } from './layout.ts';

export const time = (ms: number | null): SafeHtml | string =>
  ms === null ? '—' : html`<time datetime="${new Date(ms).toISOString()}">${formatTime(ms)}</time>`;

const notice = (text: string | null): SafeHtml | null =>
  text ? html`<p class="notice" role="status" data-test="notice">${text}</p>` : null;

/** `ck_test_AbCd…`: enough to recognise a key, not the whole of it. */
export const keyPrefix = (key: string): string => `${key.slice(0, 12)}…`;

const back = (href: string, label: string): SafeHtml => html`<p><a href="${href}">${label}</a></p>`;

// ---- index ----------------------------------------------------------------------------------------

export function developersIndexPage(input: {
  base: string;
  activeKeys: number;
  endpoints: number;
  endpointsMore: boolean;
}): SafeHtml {
  const { base } = input;
  return html`<h1>Developers</h1>
<ul class="tiles" data-test="developer-parts">
<li class="tile"><h2><a href="${base}/developers/keys">${tr('API keys')}</a></h2><p>${input.activeKeys} active ${input.activeKeys === 1 ? 'key' : 'keys'}. Create a named key pair for this mode, or revoke one.</p></li>
<li class="tile"><h2><a href="${base}/webhook_endpoints">${tr('Webhook endpoints')}</a></h2><p>${input.endpoints}${input.endpointsMore ? '+' : ''} ${input.endpoints === 1 ? 'endpoint' : 'endpoints'}. Where events are sent, their secrets, test events; the preference webhooks' secret.</p></li>
<li class="tile"><h2><a href="${base}/events">${tr('Events')}</a></h2><p>${tr('Every event with its payload and delivery attempts; redeliver.')}</p></li>
</ul>`;
}

// ---- API keys --------------------------------------------------------------------------------------

export type KeyRow = { key: ApiKey; ref: string };

export function keyListPage(input: {
  base: string;
  csrf: string;
  canWrite: boolean;
  mode: string;
  rows: readonly KeyRow[];
  notice: string | null;
  problems: readonly string[];
  name: string;
}): SafeHtml {
  const { base } = input;
  return html`<h1>${tr('API keys')}</h1>
${notice(input.notice)}
<p>${tr('Keys of')} <strong>${input.mode}</strong> ${tr('mode. A request authenticates with a key (')}<code>x-api-key</code>${tr(') and its secret (')}<code>x-api-secret</code>${tr('); the secret is shown once, when the pair is created.')}</p>
${
  input.canWrite
    ? html`<form method="post" action="${base}/developers/keys" class="card" data-test="create-key">${csrfField(input.csrf)}
<h2>${tr('Create a key pair')}</h2>
${problems(input.problems)}
<div class="field"><label for="key-name">${tr('Name')}</label>
<input id="key-name" name="name" maxlength="100" value="${input.name}" aria-describedby="key-name-hint">
<p class="hint" id="key-name-hint">${tr('Say where it is used, like "Shop server". Optional.')}</p></div>
<button type="submit">${tr('Create key pair')}</button>
</form>`
    : null
}
<div class="table-wrap" tabindex="0"><table data-test="keys"><caption>${tr('API keys, newest first')}</caption>
<thead><tr><th scope="col">${tr('Name')}</th><th scope="col">${tr('Key')}</th><th scope="col">${tr('Created')}</th><th scope="col">${tr('Last used')}</th><th scope="col">${tr('Status')}</th>${input.canWrite ? html`<th scope="col"><span class="visually-hidden">${tr('Actions')}</span></th>` : null}</tr></thead>
<tbody>${
    input.rows.length === 0
      ? html`<tr><td colspan="${input.canWrite ? 6 : 5}">${tr('No keys in this mode.')}</td></tr>`
      : input.rows.map(
          ({ key, ref }) => html`<tr data-test="key" data-key-ref="${ref}">
<td>${key.name ?? html`<span class="hint">${tr('Unnamed')}</span>`}</td>
<td class="mono" data-test="key-prefix">${keyPrefix(key.key)}</td>
<td>${time(key.createdAt)}</td>
<td data-test="last-used">${key.lastUsedAt ? time(key.lastUsedAt) : 'Never'}</td>
<td>${key.revokedAt === null ? html`<span class="badge" data-status="ACTIVE">${tr('Active')}</span>` : html`<span class="badge" data-status="REVOKED" data-test="revoked">Revoked ${time(key.revokedAt)}</span>`}</td>
${input.canWrite ? html`<td>${key.revokedAt === null ? html`<a href="${base}/developers/keys/${ref}/revoke" data-test="revoke-key">${tr('Revoke')}<span class="visually-hidden"> ${keyPrefix(key.key)}</span></a>` : null}</td>` : null}
</tr>`,
        )
  }</tbody></table></div>
<p class="hint">${tr('"Last used" is recorded at most once an hour.')}</p>
${back(`${base}/developers`, 'Back to Developers')}`;
}

export function keyCreatedPage(input: {
  base: string;
  name: string | null;
  apiKey: string;
  apiSecret: string;
}): SafeHtml {
  return html`<h1>${tr('Key pair created')}</h1>
<div class="notice" role="alert"><p><strong>${tr('Copy the secret now: it is shown only on this page, never again.')}</strong> ${tr('Store it where your server reads its configuration; if it is lost, create a new pair and revoke this one.')}</p></div>
<dl class="card">
${input.name ? html`<dt>${tr('Name')}</dt><dd>${input.name}</dd>` : null}
<dt>${tr('API key (')}<code>x-api-key</code>)</dt><dd><code class="secret" data-test="new-api-key">${input.apiKey}</code></dd>
<dt>${tr('API secret (')}<code>x-api-secret</code>)</dt><dd><code class="secret" data-test="new-api-secret">${input.apiSecret}</code></dd>
</dl>
${back(`${input.base}/developers/keys`, 'Done: back to API keys')}`;
}

export function keyRevokePage(input: { base: string; csrf: string; key: ApiKey; ref: string }): SafeHtml {
  const { base, key } = input;
  return html`<h1>Revoke ${keyPrefix(key.key)}?</h1>
<p>${key.name ? html`<strong>${key.name}</strong>: ` : null}every request made with this key is refused from the very next one. This cannot be undone: a revoked key cannot be used again.</p>
<form method="post" action="${base}/developers/keys/${input.ref}/revoke" class="toolbar">${csrfField(input.csrf)}
<button type="submit" data-test="confirm-revoke">${tr('Revoke key')}</button>
<a class="button button--secondary" href="${base}/developers/keys">${tr('Cancel')}</a>
</form>`;
}

// ---- webhook endpoints -----------------------------------------------------------------------------

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

function deliveriesTable(
  base: string,
  deliveries: readonly WebhookDelivery[],
  attempts: readonly WebhookAttempt[],
  caption: string,
  linkEvent: boolean,
): SafeHtml {
  if (deliveries.length === 0) {
    return html`<p data-test="no-deliveries">${tr('No deliveries yet.')}</p>`;
  }
  return html`<div class="table-wrap" tabindex="0"><table data-test="deliveries"><caption>${caption}</caption>
<thead><tr><th scope="col">${tr('Time')}</th>${linkEvent ? html`<th scope="col">${tr('Event')}</th>` : null}<th scope="col">${tr('Endpoint')}</th><th scope="col">${tr('Attempt')}</th><th scope="col">${tr('Response')}</th><th scope="col">${tr('Error')}</th></tr></thead>
<tbody>${deliveries.map((d) => {
    const tries = attempts.filter((a) => a.deliveryId === d.id).sort((a, b) => b.attempt - a.attempt);
    const eventCell = linkEvent
      ? html`<td><a href="${base}/events/${d.eventId}" class="mono">${d.eventId}</a></td>`
      : null;
    const endpointCell = html`<td class="mono">${d.endpointId ? html`<a href="${base}/webhook_endpoints/${d.endpointId}">${d.url}</a>` : d.url}${d.endpointId ? null : html` <span class="hint">${tr('(preference webhook)')}</span>`}</td>`;
    if (tries.length === 0) {
      return html`<tr data-test="delivery" data-status="${d.status}"><td>${d.status === 'PENDING' ? html`Pending, next try ${time(d.nextAttemptAt)}` : d.status}</td>${eventCell}${endpointCell}<td class="num">—</td><td>—</td><td>${d.lastError ?? ''}</td></tr>`;
    }
    return tries.map(
      (a) =>
        html`<tr data-test="delivery" data-status="${d.status}"><td>${time(a.startedAt)}</td>${eventCell}${endpointCell}<td class="num">${a.attempt}</td><td data-test="response-code">${a.statusCode === null ? tr('No response') : String(a.statusCode)}</td><td>${a.error ?? ''}</td></tr>`,
    );
  })}</tbody></table></div>`;
}

// ---- events ----------------------------------------------------------------------------------------

export function eventListPage(input: {
  base: string;
  events: readonly DomainEvent[];
  eventTypes: readonly string[];
  type: string;
  nextHref: string | null;
}): SafeHtml {
  const { base } = input;
  return html`<h1>${tr('Events')}</h1>
<form method="get" action="${base}/events" class="toolbar">
<div class="field"><label for="event-type">${tr('Event type')}</label><select id="event-type" name="type">
<option value="">${tr('Any')}</option>
${input.eventTypes.map((type) => html`<option value="${type}"${type === input.type ? html` selected` : null}>${type}</option>`)}
</select></div>
<button type="submit" class="button--secondary">${tr('Filter')}</button>
</form>
<div class="table-wrap" tabindex="0"><table data-test="events"><caption>${tr('Events, newest first')}</caption>
<thead><tr><th scope="col">${tr('Time')}</th><th scope="col">${tr('Type')}</th><th scope="col">${tr('Object')}</th><th scope="col">${tr('Event')}</th></tr></thead>
<tbody>${
    input.events.length === 0
      ? html`<tr><td colspan="4">${tr('No events.')}</td></tr>`
      : input.events.map(
          (e) => html`<tr data-test="event">
<td>${time(e.createdAt)}</td>
<td><code>${e.eventType}</code></td>
<td>${objectLink(base, e)}</td>
<td><a class="mono" href="${base}/events/${e.id}">${e.id}</a></td>
</tr>`,
        )
  }</tbody></table></div>
${input.nextHref ? html`<p><a href="${input.nextHref}" rel="next" data-test="next-page">${tr('Next page')}</a></p>` : null}
${back(`${base}/developers`, 'Back to Developers')}`;
}

function objectLink(base: string, e: DomainEvent): SafeHtml {
  const path =
    e.entityType === 'PAYMENT_ORDER'
      ? 'payment_orders'
      : e.entityType === 'RECURRENT_PAYMENT'
        ? 'recurrent_payments'
        : 'webhook_endpoints';
  return html`<a class="mono" href="${base}/${path}/${e.entityId}">${e.entityType} ${e.entityId}</a>`;
}

export function eventPage(input: {
  base: string;
  csrf: string;
  canRedeliver: boolean;
  event: DomainEvent;
  payload: string;
  deliveries: readonly WebhookDelivery[];
  attempts: readonly WebhookAttempt[];
  notice: string | null;
}): SafeHtml {
  const { base, event: e } = input;
  return html`<h1>${tr('Event')} <code>${e.eventType}</code></h1>
${notice(input.notice)}
<dl class="card">
<dt>Id</dt><dd class="mono">${e.id}</dd>
<dt>${tr('Object')}</dt><dd>${objectLink(base, e)}</dd>
<dt>${tr('Created')}</dt><dd>${time(e.createdAt)}</dd>
</dl>
<section aria-labelledby="payload"><h2 id="payload">${tr('Payload')}</h2>
<p class="hint">${tr('The body as sent, byte for byte (shown indented).')}</p>
<pre class="card" data-test="payload"><code>${input.payload}</code></pre>
</section>
<section aria-labelledby="deliveries-heading"><h2 id="deliveries-heading">${tr('Deliveries')}</h2>
${deliveriesTable(base, input.deliveries, input.attempts, `Deliveries of ${e.eventType}, every attempt`, false)}
${
  input.canRedeliver && input.deliveries.length > 0
    ? html`<form method="post" action="${base}/events/${e.id}/redeliver" class="inline-form">${csrfField(input.csrf)}<button type="submit" data-test="redeliver">${tr('Redeliver')}</button></form>
<p class="hint">${tr('One more attempt now to each endpoint, with the same')} <code>webhook-id</code>${tr('; disabled and deleted endpoints are skipped.')}</p>`
    : null
}
</section>
${back(`${base}/events`, 'Back to events')}`;
}
