import type { CurrencyTable } from '../../../domain/currencies/currency.ts';
import type { PageLanguage } from '../../../domain/shared/language.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import { formatDecimalMoney } from '../money.ts';
import type { Messages } from '../payer-messages.ts';

/** What a method panel gets besides the order's instructions. */
export type PanelContext = {
  messages: Messages;
  /** The reader's language and region: amounts are written as they write money. */
  language: PageLanguage;
  currencies: CurrencyTable;
  /** The method as the payer chose it, e.g. "USDT na Ethereum". */
  methodLabel: string;
  /** Display name of the crypto network ("Ethereum"), from the catalogue. */
  networkName: string | null;
  /** A cash method whose vouchers are boletos (paid at a bank or in its app, not at a shop). */
  boleto?: boolean;
};

/** An amount of the instructions (a decimal text and its currency) as the reader writes money. */
export function panelAmount(amount: string, currency: string, ctx: PanelContext): string {
  return formatDecimalMoney(amount, currency, ctx.currencies, ctx.language);
}

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
