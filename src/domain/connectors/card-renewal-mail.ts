import type { CurrencyTable } from '../currencies/currency.ts';
import { profileIn } from '../merchants/merchant-profile.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { newId } from '../shared/ids.ts';
import type { Locale } from '../shared/language.ts';
import type { LinkSigner } from '../shared/link-signer.ts';
import { formatMoney } from '../shared/money-format.ts';
import type { RecurrentPayment } from '../subscriptions/recurrent-payment.ts';
import { subscriptionPageUrl } from '../subscriptions/renewal-mail.ts';

export const RENEWAL_CONFIRMATION_PURPOSE = 'card-renewal-confirmation';

/** The payer's page to confirm one renewal with their bank: the signature covers the subscription and the order. */
export function renewalConfirmationPath(signer: LinkSigner, recId: string, orderId: string): string {
  const sig = signer.sign(RENEWAL_CONFIRMATION_PURPOSE, `${recId}:${orderId}`);
  return `/subscriptions/${recId}/renewals/${orderId}?sig=${sig}`;
}

export function isRenewalConfirmationLink(signer: LinkSigner, recId: string, orderId: string, sig: string): boolean {
  return signer.verify(RENEWAL_CONFIRMATION_PURPOSE, `${recId}:${orderId}`, sig);
}

type Texts = {
  subject: (title: string) => string;
  hello: (firstName: string | null) => string;
  needsYou: (title: string, amount: string) => string;
  confirm: (url: string) => string;
  manage: (url: string) => string;
};

/** Pure data: the words of the mail in the payer's language; amounts arrive already written. */
const TEXTS: Readonly<Record<Locale, Texts>> = {
  en: {
    subject: (title) => `Confirm your payment: ${title}`,
    hello: (firstName) => (firstName ? `Hello ${firstName},` : 'Hello,'),
    needsYou: (title, amount) =>
      `Your bank asks you to confirm the renewal of "${title}" (${amount}) before your card is charged.`,
    confirm: (url) => `Confirm the payment here: ${url}`,
    manage: (url) => `Manage or cancel your subscription: ${url}`,
  },
  es: {
    subject: (title) => `Confirma tu pago: ${title}`,
    hello: (firstName) => (firstName ? `Hola, ${firstName}:` : 'Hola:'),
    needsYou: (title, amount) =>
      `Tu banco pide que confirmes la renovación de "${title}" (${amount}) antes de cobrar tu tarjeta.`,
    confirm: (url) => `Confirma el pago aquí: ${url}`,
    manage: (url) => `Administra o cancela tu suscripción: ${url}`,
  },
  pt: {
    subject: (title) => `Confirme seu pagamento: ${title}`,
    hello: (firstName) => (firstName ? `Olá, ${firstName},` : 'Olá,'),
    needsYou: (title, amount) =>
      `Seu banco pede que você confirme a renovação de "${title}" (${amount}) antes de cobrar seu cartão.`,
    confirm: (url) => `Confirme o pagamento aqui: ${url}`,
    manage: (url) => `Gerencie ou cancele sua assinatura: ${url}`,
  },
};

/**
 * The mail to a subscriber whose bank wants them present for a renewal (3-D Secure): queued in
 * the transaction that records the renewal's intent, with the signed link to confirm it.
 */
export class CardRenewalMailer {
  constructor(
    private readonly currencies: CurrencyTable,
    private readonly links: { publicUrl: string; signer: LinkSigner },
  ) {}

  async queue(repos: Repositories, rec: RecurrentPayment, order: PaymentOrder, now: number): Promise<void> {
    if (!rec.payer.email) {
      return;
    }
    const t = TEXTS[rec.language];
    const { publicUrl, signer } = this.links;
    const amount = formatMoney(order.chargedAmountMinor, order.chargedCurrency, this.currencies, rec.language);
    const payee = await profileIn(repos, rec.merchantId);
    const title = rec.title.replace(/[\p{Cc}\s]+/gu, ' ').trim();
    const merchant = payee?.displayName ? ` (${payee.displayName.replace(/[\p{Cc}\s]+/gu, ' ').trim()})` : '';
    await repos.emails.insert({
      id: newId(),
      merchantId: rec.merchantId,
      mode: rec.mode,
      to: rec.payer.email,
      subject: `${t.subject(title)}${merchant}`,
      text: [
        t.hello(rec.payer.firstName),
        '',
        t.needsYou(rec.title, amount),
        '',
        t.confirm(`${publicUrl}${renewalConfirmationPath(signer, rec.id, order.id)}`),
        t.manage(subscriptionPageUrl(publicUrl, signer, rec.id)),
      ].join('\n'),
      status: 'PENDING',
      attempts: 0,
      lastError: null,
      createdAt: now,
      sentAt: null,
    });
  }
}
