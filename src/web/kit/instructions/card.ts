import type { PaymentInstructions } from '../../../domain/payment-orders/payment-order.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import type { PanelContext } from './shared.ts';

/** Brand and last four digits only: the most a checkout page ever shows of a card. */
export function cardDescription(ins: PaymentInstructions | null, ctx: PanelContext): string | null {
  if (ins?.type !== 'CARD' || !ins.brand || !ins.last4) {
    return null;
  }
  const brand = ins.brand.charAt(0) + ins.brand.slice(1).toLowerCase();
  return ctx.messages.cardUsed(brand, ins.last4);
}

/** A card charge the processor has not decided yet (approval after a delay). */
export function cardPendingPanel(ins: PaymentInstructions | null, ctx: PanelContext): SafeHtml {
  const described = cardDescription(ins, ctx);
  return html`<p>${ctx.messages.cardPending}</p>
${described ? html`<p data-test="card-used">${described}</p>` : null}`;
}
