import type { Locale } from '../shared/language.ts';

/**
 * The renewal notice's words in the payer's language (the one they subscribed in). Amounts and
 * dates arrive already written as the payer writes them; pure data, nothing is read or sent here.
 */
export type RenewalMailTexts = {
  /** BCP 47 tag the due date is written in (the payer pages' own). */
  dateLocale: string;
  subject: (title: string, merchant: string | null) => string;
  /** The greeting; the first name is left out when the payer gave none. */
  hello: (firstName: string | null) => string;
  renews: (title: string, amount: string, due: string) => string;
  withMerchant: (merchant: string) => string;
  support: (email: string) => string;
  pix: string;
  crypto: (amount: string, network: string) => string;
  cryptoLink: (uri: string) => string;
  bankTransfer: (amount: string, holder: string, bank: string, account: string, routing: string) => string;
  bankReference: (reference: string) => string;
  cash: (amount: string, provider: string, reference: string) => string;
  paymentPage: (url: string) => string;
  manage: (url: string) => string;
};

const en: RenewalMailTexts = {
  dateLocale: 'en-GB',
  subject: (title, merchant) => (merchant ? `Payment due: ${title} (${merchant})` : `Payment due: ${title}`),
  hello: (firstName) => (firstName ? `Hello ${firstName},` : 'Hello,'),
  renews: (title, amount, due) => `Your subscription "${title}" renews: ${amount}, due by ${due}.`,
  withMerchant: (merchant) => `This subscription is with ${merchant}.`,
  support: (email) => `Questions about it? Write to ${email}.`,
  pix: 'Pay with PIX by pasting this code in your bank app:',
  crypto: (amount, network) => `Send ${amount} on ${network} to:`,
  cryptoLink: (uri) => `Payment link: ${uri}`,
  bankTransfer: (amount, holder, bank, account, routing) =>
    `Transfer ${amount} to ${holder}, ${bank}, account ${account} (${routing}).`,
  bankReference: (reference) => `Quote this reference: ${reference}`,
  cash: (amount, provider, reference) => `Pay ${amount} in cash at ${provider} with reference ${reference}.`,
  paymentPage: (url) => `Payment page (QR code and details): ${url}`,
  manage: (url) => `Manage or cancel your subscription: ${url}`,
};

const es: RenewalMailTexts = {
  dateLocale: 'es',
  subject: (title, merchant) => (merchant ? `Pago pendiente: ${title} (${merchant})` : `Pago pendiente: ${title}`),
  hello: (firstName) => (firstName ? `Hola, ${firstName}:` : 'Hola:'),
  renews: (title, amount, due) => `Tu suscripción "${title}" se renueva: ${amount}, a pagar antes del ${due}.`,
  withMerchant: (merchant) => `Esta suscripción es con ${merchant}.`,
  support: (email) => `¿Preguntas? Escribe a ${email}.`,
  pix: 'Paga con PIX pegando este código en la app de tu banco:',
  crypto: (amount, network) => `Envía ${amount} por la red ${network} a:`,
  cryptoLink: (uri) => `Enlace de pago: ${uri}`,
  bankTransfer: (amount, holder, bank, account, routing) =>
    `Transfiere ${amount} a ${holder}, ${bank}, cuenta ${account} (${routing}).`,
  bankReference: (reference) => `Indica esta referencia: ${reference}`,
  cash: (amount, provider, reference) => `Paga ${amount} en efectivo en ${provider} con la referencia ${reference}.`,
  paymentPage: (url) => `Página de pago (código QR y datos): ${url}`,
  manage: (url) => `Administra o cancela tu suscripción: ${url}`,
};

const pt: RenewalMailTexts = {
  dateLocale: 'pt-BR',
  subject: (title, merchant) =>
    merchant ? `Pagamento pendente: ${title} (${merchant})` : `Pagamento pendente: ${title}`,
  hello: (firstName) => (firstName ? `Olá, ${firstName},` : 'Olá,'),
  renews: (title, amount, due) => `Sua assinatura "${title}" será renovada: ${amount}, com vencimento em ${due}.`,
  withMerchant: (merchant) => `Esta assinatura é com ${merchant}.`,
  support: (email) => `Dúvidas? Escreva para ${email}.`,
  pix: 'Pague com PIX colando este código no app do seu banco:',
  crypto: (amount, network) => `Envie ${amount} pela rede ${network} para:`,
  cryptoLink: (uri) => `Link de pagamento: ${uri}`,
  bankTransfer: (amount, holder, bank, account, routing) =>
    `Transfira ${amount} para ${holder}, ${bank}, conta ${account} (${routing}).`,
  bankReference: (reference) => `Informe esta referência: ${reference}`,
  cash: (amount, provider, reference) => `Pague ${amount} em ${provider} com a referência ${reference}.`,
  paymentPage: (url) => `Página de pagamento (QR code e dados): ${url}`,
  manage: (url) => `Gerencie ou cancele sua assinatura: ${url}`,
};

const ALL: Readonly<Record<Locale, RenewalMailTexts>> = { en, es, pt };

export function renewalMailTexts(locale: Locale): RenewalMailTexts {
  return ALL[locale];
}
