import type { ChainProgress, PaymentInstructions } from '../../../domain/payment-orders/payment-order.ts';
import { parseDecimal } from '../../../domain/shared/money.ts';
import type { SafeHtml } from '../html.ts';
import { html, trustedMarkup } from '../html.ts';
import { formatMoney } from '../money.ts';
import { qrSvg } from '../qr.ts';
import type { PanelContext } from './shared.ts';
import { copyable, panelAmount } from './shared.ts';

export type CryptoInstructions = Extract<PaymentInstructions, { type: 'CRYPTO_ONCHAIN' }>;

/**
 * On-chain crypto: the exact amount, the order's own address, a QR of the BIP21 / EIP-681 URI
 * (wallets fill in address, amount and token from it) and how many confirmations count.
 * With `chainProgress` (the checkout's own order page; undefined elsewhere, e.g. the dashboard),
 * also what the chain shows so far, in a line the page's script rewrites from the status poll.
 */
export async function cryptoPanel(
  ins: CryptoInstructions,
  ctx: PanelContext,
  chainProgress?: ChainProgress | null,
): Promise<SafeHtml> {
  const m = ctx.messages;
  const network = ctx.networkName ?? ins.network;
  const qr = trustedMarkup(await qrSvg(ins.uri, m.qrLabel));
  // Present even while empty: a live region must already be in the page for its later updates to be announced.
  const progress =
    chainProgress === undefined
      ? null
      : html`<p class="status" data-chain-progress data-test="crypto-progress" aria-live="polite">${chainProgressText(ins, chainProgress, ctx)}</p>`;
  // The copyable amount stays the plain decimal a wallet's amount field takes whatever its language;
  // the sentence above it is written as the payer writes money.
  return html`<p>${m.cryptoInstructions(panelAmount(ins.amount, ins.currency, ctx), network)}</p>
<div class="qr" data-test="crypto-qr">${qr}</div>
${copyable('crypto-amount', `${m.amount} (${ins.currency})`, ins.amount, m, { test: 'crypto-amount' })}
${copyable('crypto-address', m.address, ins.address, m, { test: 'crypto-address' })}
<dl class="facts"><dt>${m.network}</dt><dd data-test="crypto-network">${network}</dd></dl>
<p>${m.confirmations(ins.required_confirmations)}</p>
${progress}
<p><a class="button button--secondary" href="${ins.uri}" data-test="crypto-uri">${m.openWallet}</a></p>`;
}

/**
 * The payer's line for what the chain shows so far, or null before anything was seen. One
 * function for the order page and its status poll, so the script shows the page's own words.
 */
export function chainProgressText(
  ins: CryptoInstructions,
  progress: ChainProgress | null,
  ctx: Pick<PanelContext, 'messages' | 'language' | 'currencies'>,
): string | null {
  if (progress === null) {
    return null;
  }
  const m = ctx.messages;
  // The amount text was written from the charged minor units with the currency's decimals
  // (formatMinor), so its digits are the due amount in base units and its scale the decimals.
  const due = parseDecimal(ins.amount);
  if (due && !due.negative && progress.seenMinor < due.digits) {
    const money = (minor: bigint) => formatMoney(minor, ins.currency, ctx.currencies, ctx.language);
    return m.chainPartial(money(progress.seenMinor), money(due.digits), money(due.digits - progress.seenMinor));
  }
  const required = ins.required_confirmations;
  // A payment deeper than required still reads "3 of 3": the order closes on the next run.
  return m.chainSeen(Math.min(progress.confirmations, required), required);
}
