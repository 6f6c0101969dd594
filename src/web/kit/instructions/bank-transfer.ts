import type { PaymentInstructions } from '../../../domain/payment-orders/payment-order.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import type { PanelContext } from './shared.ts';
import { copyable, panelAmount } from './shared.ts';

/** Bank transfer: the merchant's account and the unique reference the payer must quote so the money is matched. */
export function bankTransferPanel(
  ins: Extract<PaymentInstructions, { type: 'BANK_TRANSFER' }>,
  ctx: PanelContext,
): SafeHtml {
  const m = ctx.messages;
  return html`<p>${m.bankInstructions}</p>
<dl class="facts" data-test="bank-details">
<dt>${m.amount}</dt><dd data-test="bank-amount">${panelAmount(ins.amount, ins.currency, ctx)}</dd>
<dt>${m.bankName}</dt><dd>${ins.bank_name}</dd>
<dt>${m.accountHolder}</dt><dd>${ins.account_holder}</dd>
<dt>${m.accountNumber}</dt><dd class="mono">${ins.account_number}</dd>
<dt>${m.routing}</dt><dd class="mono">${ins.routing}</dd>
</dl>
${copyable('bank-reference', m.reference, ins.reference, m, { test: 'bank-reference' })}`;
}
