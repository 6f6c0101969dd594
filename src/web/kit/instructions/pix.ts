import type { PaymentInstructions } from '../../../domain/payment-orders/payment-order.ts';
import { parseRfc3339 } from '../../../domain/shared/clock.ts';
import type { SafeHtml } from '../html.ts';
import { html, trustedMarkup } from '../html.ts';
import { formatDateTime } from '../payer-messages.ts';
import { qrSvg } from '../qr.ts';
import type { PanelContext } from './shared.ts';
import { copyable } from './shared.ts';

/** PIX: the BR Code as a QR image and as copy-and-paste text ("copia e cola"), and until when it is valid. */
export async function pixPanel(
  ins: Extract<PaymentInstructions, { type: 'PIX' }>,
  ctx: PanelContext,
): Promise<SafeHtml> {
  const m = ctx.messages;
  // qrSvg escapes its label and draws only modules: its output is markup we produced.
  const qr = trustedMarkup(await qrSvg(ins.pix_payload, m.qrLabel));
  const expires = parseRfc3339(ins.expires_at);
  return html`<p>${m.pixInstructions}</p>
<div class="qr" data-test="pix-qr">${qr}</div>
${copyable('pix-code', m.pixCode, ins.pix_payload, m, { multiline: true, test: 'pix-payload' })}
${expires !== null ? html`<dl class="facts"><dt>${m.validUntil}</dt><dd>${formatDateTime(expires, m)}</dd></dl>` : null}`;
}
