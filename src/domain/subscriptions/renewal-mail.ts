import type { CurrencyTable } from '../currencies/currency.ts';
import { profileIn } from '../merchants/merchant-profile.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { toWireTime } from '../shared/clock.ts';
import { newId } from '../shared/ids.ts';
import type { LinkSigner } from '../shared/link-signer.ts';
import { formatMinor } from '../shared/money.ts';
import type { TestClocks } from '../shared/test-clocks.ts';
import type { RecurrentPayment } from './recurrent-payment.ts';

export const SUBSCRIPTION_LINK_PURPOSE = 'subscription';

/** The payer's page for one subscription: the signed link is the credential. */
export function subscriptionPageUrl(publicUrl: string, signer: LinkSigner, recId: string): string {
  return `${publicUrl}/subscriptions/${recId}?sig=${signer.sign(SUBSCRIPTION_LINK_PURPOSE, recId)}`;
}

function instructionsText(order: PaymentOrder): string[] {
  const i = order.instructions;
  switch (i?.type) {
    case 'PIX':
      return ['Pay with PIX by pasting this code in your bank app:', i.pix_payload];
    case 'CRYPTO_ONCHAIN':
      return [`Send ${i.amount} ${i.currency} on ${i.network} to:`, i.address, `Payment link: ${i.uri}`];
    case 'BANK_TRANSFER':
      return [
        `Transfer ${i.amount} ${i.currency} to ${i.account_holder}, ${i.bank_name}, account ${i.account_number} (${i.routing}).`,
        `Quote this reference: ${i.reference}`,
      ];
    case 'CASH':
      return [`Pay ${i.amount} ${i.currency} in cash at ${i.provider} with reference ${i.reference}.`];
    case 'CARD':
    case undefined:
      return [];
  }
}

/**
 * Queues the renewal notice of a push-method subscription in the transaction that opened the
 * renewal order: amount, due date, how to pay, a link to the payment page (QR, voucher) and a
 * signed link to manage or cancel the subscription.
 */
export class RenewalMailer {
  constructor(
    private readonly clocks: TestClocks,
    private readonly currencies: CurrencyTable,
    private readonly links: { publicUrl: string; signer: LinkSigner },
  ) {}

  async queue(repos: Repositories, rec: RecurrentPayment, order: PaymentOrder): Promise<void> {
    if (!rec.payer.email) {
      return;
    }
    const now = this.clocks.clockFor(rec).now().getTime();
    const { publicUrl, signer } = this.links;
    const decimals = this.currencies.decimalsOf(rec.currency);
    // Whom the payer pays: the business profile's display name (else the merchant's name) and support address.
    const payee = await profileIn(repos, rec.merchantId);
    const merchantName = oneLine(payee?.displayName ?? '');
    const title = oneLine(rec.title);
    const text = [
      `Hello ${rec.payer.firstName ?? ''},`.trim(),
      '',
      `Your subscription "${rec.title}" renews: ${formatMinor(rec.amountMinor, decimals)} ${rec.currency}, due by ${toWireTime(order.expiresAt)}.`,
      ...(merchantName ? [`This subscription is with ${merchantName}.`] : []),
      ...(payee?.supportEmail ? [`Questions about it? Write to ${payee.supportEmail}.`] : []),
      '',
      ...instructionsText(order),
      '',
      `Payment page (QR code and details): ${publicUrl}/checkout/${rec.checkoutPreferenceId}/orders/${order.id}`,
      `Manage or cancel your subscription: ${subscriptionPageUrl(publicUrl, signer, rec.id)}`,
    ].join('\n');
    await repos.emails.insert({
      id: newId(),
      merchantId: rec.merchantId,
      mode: rec.mode,
      to: rec.payer.email,
      subject: merchantName ? `Payment due: ${title} (${merchantName})` : `Payment due: ${title}`,
      text,
      status: 'PENDING',
      attempts: 0,
      lastError: null,
      createdAt: now,
      sentAt: null,
    });
  }
}

/** Text for a one-line place (a subject): no line breaks or other control characters. */
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\s]+/gu, ' ').trim();
}
