import type { PaymentOrder } from '../../../domain/payment-orders/payment-order.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import { bankTransferPanel } from './bank-transfer.ts';
import { cardPendingPanel } from './card.ts';
import { cashPanel } from './cash.ts';
import { cryptoPanel } from './crypto.ts';
import { pixPanel } from './pix.ts';
import type { PanelContext } from './shared.ts';

/** The panel of an open order, chosen by its instructions (adapters hold no HTML; each panel reads one shape). */
export async function renderPanel(order: PaymentOrder, ctx: PanelContext): Promise<SafeHtml> {
  const ins = order.instructions;
  if (order.paymentMethodType === 'CARD') {
    return cardPendingPanel(ins, ctx);
  }
  switch (ins?.type) {
    case 'PIX':
      return pixPanel(ins, ctx);
    case 'CRYPTO_ONCHAIN':
      return cryptoPanel(ins, ctx);
    case 'BANK_TRANSFER':
      return bankTransferPanel(ins, ctx);
    case 'CASH':
      return cashPanel(ins, ctx);
    case 'CARD':
      return cardPendingPanel(ins, ctx);
    case undefined:
      return html`<p>${ctx.messages.errorText}</p>`;
  }
}
