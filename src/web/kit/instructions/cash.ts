import type { PaymentInstructions } from '../../../domain/payment-orders/payment-order.ts';
import { parseRfc3339 } from '../../../domain/shared/clock.ts';
import { renderItfBarcodeSvg } from '../barcode.ts';
import type { SafeHtml } from '../html.ts';
import { html, trustedMarkup } from '../html.ts';
import { formatDateTime } from '../payer-messages.ts';
import type { PanelContext } from './shared.ts';
import { panelAmount } from './shared.ts';

/** Cash voucher: the network, amount, due date, the reference to give the cashier and the barcode to scan. */
export function cashPanel(ins: Extract<PaymentInstructions, { type: 'CASH' }>, ctx: PanelContext): SafeHtml {
  const m = ctx.messages;
  const due = parseRfc3339(ins.due_date);
  // The barcode renderer accepts digits only (it throws otherwise), so its SVG holds no outside text.
  const barcode = /^[0-9]+$/.test(ins.barcode) ? trustedMarkup(renderItfBarcodeSvg(ins.barcode, m.barcode)) : null;
  return html`<p>${ctx.boleto ? m.boletoInstructions : m.cashInstructions(ins.provider)}</p>
<dl class="facts" data-test="cash-voucher">
<dt>${m.amount}</dt><dd data-test="cash-amount">${panelAmount(ins.amount, ins.currency, ctx)}</dd>
${due !== null ? html`<dt>${m.payBefore}</dt><dd>${formatDateTime(due, m)}</dd>` : null}
<dt>${m.reference}</dt><dd class="mono" data-test="cash-reference">${ins.reference}</dd>
</dl>
${barcode ? html`<div class="barcode" data-test="cash-barcode">${barcode}</div>` : null}
<p class="hint">${m.barcodeNumber}: <span class="mono">${ins.barcode}</span></p>`;
}
