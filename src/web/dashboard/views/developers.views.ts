import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';

// What the Developers pages (API keys, webhook endpoints, events) share.

export const notice = (text: string | null): SafeHtml | null =>
  text ? html`<p class="notice" role="status" data-test="notice">${text}</p>` : null;

export const back = (href: string, label: string): SafeHtml => html`<p><a href="${href}">${label}</a></p>`;

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
