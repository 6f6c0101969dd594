import type { ApiKey } from '../../../domain/merchants/merchant.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import { back, notice } from './developers.views.ts';
import { csrfField, problems, time } from './layout.ts';

/** `ck_test_AbCd…`: enough to recognise a key, not the whole of it. */
export const keyPrefix = (key: string): string => `${key.slice(0, 12)}…`;

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
