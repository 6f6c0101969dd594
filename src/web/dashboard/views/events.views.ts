import type { DomainEvent } from '../../../domain/events/event.ts';
import type { WebhookAttempt, WebhookDelivery } from '../../../domain/webhooks/webhook.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import { back, notice } from './developers.views.ts';
import { csrfField, time } from './layout.ts';

/** The deliveries of an event or to an endpoint, one row per attempt (the newest first). */
export function deliveriesTable(
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
