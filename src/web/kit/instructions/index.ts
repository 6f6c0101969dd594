import type { ChainProgress, PaymentOrder } from '../../../domain/payment-orders/payment-order.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import { bankTransferPanel } from './bank-transfer.ts';
import { cardPendingPanel } from './card.ts';
import { cashPanel } from './cash.ts';
import { cryptoPanel } from './crypto.ts';
import { pixPanel } from './pix.ts';
import type { PanelContext } from './shared.ts';

/**
 * The instructions of a push method (PIX, crypto, bank transfer, cash) as the payer sees them;
 * null for a card or no instructions. The checkout and the dashboard's order page both show these.
 * `chainProgress` only from the checkout's order page, the one page that keeps it current.
 */
export async function pushPanel(
  ins: PaymentOrder['instructions'],
  ctx: PanelContext,
  chainProgress?: ChainProgress | null,
): Promise<SafeHtml | null> {
  switch (ins?.type) {
    case 'PIX':
      return pixPanel(ins, ctx);
    case 'CRYPTO_ONCHAIN':
      return cryptoPanel(ins, ctx, chainProgress);
    case 'BANK_TRANSFER':
      return bankTransferPanel(ins, ctx);
    case 'CASH':
      return cashPanel(ins, ctx);
    case 'CARD':
    case undefined:
      return null;
  }
}

/** The panel of an open order, chosen by its instructions (adapters hold no HTML; each panel reads one shape). */
export async function renderPanel(order: PaymentOrder, ctx: PanelContext): Promise<SafeHtml> {
  const ins = order.instructions;
  if (order.paymentMethodType === 'CARD' || ins?.type === 'CARD') {
    return cardPendingPanel(ins, ctx);
  }
  return (await pushPanel(ins, ctx, order.chainProgress)) ?? html`<p>${ctx.messages.errorText}</p>`;
}
