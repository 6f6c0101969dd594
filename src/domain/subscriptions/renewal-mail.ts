import type { CurrencyTable } from '../currencies/currency.ts';
import { profileIn } from '../merchants/merchant-profile.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { newId } from '../shared/ids.ts';
import type { LinkSigner } from '../shared/link-signer.ts';
import { formatMoney } from '../shared/money-format.ts';
import type { TestClocks } from '../shared/test-clocks.ts';
import type { RecurrentPayment } from './recurrent-payment.ts';
import type { RenewalMailTexts } from './renewal-mail.texts.ts';
import { renewalMailTexts } from './renewal-mail.texts.ts';

export const SUBSCRIPTION_LINK_PURPOSE = 'subscription';

/** The payer's page for one subscription: the signed link is the credential. */
export function subscriptionPageUrl(publicUrl: string, signer: LinkSigner, recId: string): string {
  return `${publicUrl}/subscriptions/${recId}?sig=${signer.sign(SUBSCRIPTION_LINK_PURPOSE, recId)}`;
}

/** How to pay, in the payer's words; `charged` is what the method asks for, written as they write money. */
function instructionsText(order: PaymentOrder, t: RenewalMailTexts, charged: string): string[] {
  const i = order.instructions;
  switch (i?.type) {
    case 'PIX':
      return [t.pix, i.pix_payload];
    case 'CRYPTO_ONCHAIN':
      return [t.crypto(charged, i.network), i.address, t.cryptoLink(i.uri)];
    case 'BANK_TRANSFER':
      return [
        t.bankTransfer(charged, i.account_holder, i.bank_name, i.account_number, i.routing),
        t.bankReference(i.reference),
      ];
    case 'CASH':
      return [t.cash(charged, i.provider, i.reference)];
    case 'CARD':
    case undefined:
      return [];
  }
}

/** A due date as the payer reads dates, in UTC (the payer's zone is not known), with the zone said. */
function dueDate(ms: number, t: RenewalMailTexts): string {
  const text = new Intl.DateTimeFormat(t.dateLocale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(ms),
  );
  return `${text} UTC`;
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
    // In the language the payer subscribed in; money as a reader of it writes the currency at home.
    const t = renewalMailTexts(rec.language);
    const money = (amountMinor: bigint, currency: string) =>
      formatMoney(amountMinor, currency, this.currencies, rec.language);
    // Whom the payer pays: the business profile's display name (else the merchant's name) and support address.
    const payee = await profileIn(repos, rec.merchantId);
    const merchantName = oneLine(payee?.displayName ?? '');
    const title = oneLine(rec.title);
    const text = [
      t.hello(rec.payer.firstName),
      '',
      t.renews(rec.title, money(rec.amountMinor, rec.currency), dueDate(order.expiresAt, t)),
      ...(merchantName ? [t.withMerchant(merchantName)] : []),
      ...(payee?.supportEmail ? [t.support(payee.supportEmail)] : []),
      '',
      ...instructionsText(order, t, money(order.chargedAmountMinor, order.chargedCurrency)),
      '',
      t.paymentPage(`${publicUrl}/checkout/${rec.checkoutPreferenceId}/orders/${order.id}`),
      t.manage(subscriptionPageUrl(publicUrl, signer, rec.id)),
    ].join('\n');
    await repos.emails.insert({
      id: newId(),
      merchantId: rec.merchantId,
      mode: rec.mode,
      to: rec.payer.email,
      subject: t.subject(title, merchantName || null),
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
