import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import type { Messages } from '../payer-messages.ts';

/** What a method panel gets besides the order's instructions. */
export type PanelContext = {
  messages: Messages;
  /** The method as the payer chose it, e.g. "Crypto (USDT on Ethereum)". */
  methodLabel: string;
  /** Display name of the crypto network ("Ethereum"), from the catalogue. */
  networkName: string | null;
};

/**
 * A read-only value with a Copy button. The button starts hidden: it does nothing without
 * JavaScript, and the script reveals it. The value stays selectable either way.
 */
export function copyable(
  id: string,
  label: string,
  value: string,
  m: Messages,
  options: { multiline?: boolean; test: string },
): SafeHtml {
  const control = options.multiline
    ? html`<textarea id="${id}" readonly rows="5" data-test="${options.test}">${value}</textarea>`
    : html`<input id="${id}" type="text" readonly value="${value}" class="mono" data-test="${options.test}">`;
  return html`<div class="field">
<label for="${id}">${label}</label>
<div class="copy-row">${control}<button type="button" class="button--secondary" data-copy="${id}" data-copied="${m.copied}" data-test="copy-${id}" hidden>${m.copy}</button></div>
</div>`;
}
