import type { PaymentInstructions } from '../../../domain/payment-orders/payment-order.ts';
import { qrSvg } from '../../../providers/shared/qr.ts';
import type { SafeHtml } from '../html.ts';
import { html, trustedMarkup } from '../html.ts';
import type { PanelContext } from './shared.ts';
import { copyable } from './shared.ts';

/**
 * On-chain crypto: the exact amount, the order's own address, a QR of the BIP21 / EIP-681 URI
 * (wallets fill in address, amount and token from it) and how many confirmations count.
 */
export async function cryptoPanel(
  ins: Extract<PaymentInstructions, { type: 'CRYPTO_ONCHAIN' }>,
  ctx: PanelContext,
): Promise<SafeHtml> {
  const m = ctx.messages;
  const network = ctx.networkName ?? ins.network;
  const qr = trustedMarkup(await qrSvg(ins.uri, m.qrLabel));
  return html`<p>${m.cryptoInstructions(ins.amount, ins.currency, network)}</p>
<div class="qr" data-test="crypto-qr">${qr}</div>
${copyable('crypto-amount', `${m.amount} (${ins.currency})`, ins.amount, m, { test: 'crypto-amount' })}
${copyable('crypto-address', m.address, ins.address, m, { test: 'crypto-address' })}
<dl class="facts"><dt>${m.network}</dt><dd data-test="crypto-network">${network}</dd></dl>
<p>${m.confirmations(ins.required_confirmations)}</p>
<p><a class="button button--secondary" href="${ins.uri}" data-test="crypto-uri">${m.openWallet}</a></p>`;
}
