import type { Locale } from '../kit/locale.ts';

/**
 * The texts of the public plan link's own pages, in the checkout's three languages (chosen from
 * Accept-Language the same way). Everything else on those pages (footer, test banner, document
 * language) comes from the checkout's messages, so they look like the checkout's error pages.
 */
export type PlanLinkMessages = {
  notFoundTitle: string;
  notFoundText: string;
  archivedTitle: string;
  archivedText: string;
  unavailableTitle: string;
  unavailableText: string;
  rateLimitedTitle: string;
  rateLimitedText: string;
  errorTitle: string;
  errorText: string;
  badRequestTitle: string;
  badRequestText: string;
  /** The page a link-preview bot gets instead of a new checkout. */
  previewText: string;
  subscribe: string;
};

const en: PlanLinkMessages = {
  notFoundTitle: 'Plan not found',
  notFoundText: 'Check the link you were given, or ask the merchant for a new one.',
  archivedTitle: 'This plan is no longer offered',
  archivedText:
    'The merchant no longer offers this subscription plan. If you already subscribe to it, nothing changes.',
  unavailableTitle: 'This plan cannot be bought right now',
  unavailableText: 'No payment method can take this subscription at the moment. Please contact the merchant.',
  rateLimitedTitle: 'Too many attempts',
  rateLimitedText: 'This link was opened too many times from your connection. Wait a minute, then open it again.',
  errorTitle: 'Something went wrong',
  errorText: 'Please try again in a moment.',
  badRequestTitle: 'The request could not be processed',
  badRequestText: 'Open the link again and retry.',
  previewText: 'A subscription plan. Open this link in your browser to subscribe.',
  subscribe: 'Subscribe',
};

const es: PlanLinkMessages = {
  notFoundTitle: 'No encontramos este plan',
  notFoundText: 'Revisa el enlace que recibiste o pide uno nuevo al comercio.',
  archivedTitle: 'Este plan ya no se ofrece',
  archivedText: 'El comercio ya no ofrece este plan de suscripción. Si ya estás suscrito, nada cambia para ti.',
  unavailableTitle: 'Este plan no se puede contratar en este momento',
  unavailableText: 'Ningún método de pago puede aceptar esta suscripción por ahora. Contacta al comercio.',
  rateLimitedTitle: 'Demasiados intentos',
  rateLimitedText: 'Este enlace se abrió demasiadas veces desde tu conexión. Espera un minuto y vuelve a abrirlo.',
  errorTitle: 'Algo salió mal',
  errorText: 'Vuelve a intentarlo en un momento.',
  badRequestTitle: 'No se pudo procesar la solicitud',
  badRequestText: 'Abre el enlace de nuevo y vuelve a intentarlo.',
  previewText: 'Un plan de suscripción. Abre este enlace en tu navegador para suscribirte.',
  subscribe: 'Suscribirme',
};

const pt: PlanLinkMessages = {
  notFoundTitle: 'Plano não encontrado',
  notFoundText: 'Confira o link que você recebeu ou peça um novo ao lojista.',
  archivedTitle: 'Este plano não é mais oferecido',
  archivedText: 'O lojista não oferece mais este plano de assinatura. Se você já é assinante, nada muda para você.',
  unavailableTitle: 'Este plano não pode ser contratado agora',
  unavailableText: 'Nenhuma forma de pagamento aceita esta assinatura no momento. Fale com o lojista.',
  rateLimitedTitle: 'Tentativas demais',
  rateLimitedText: 'Este link foi aberto vezes demais a partir da sua conexão. Aguarde um minuto e abra-o de novo.',
  errorTitle: 'Algo deu errado',
  errorText: 'Tente novamente em instantes.',
  badRequestTitle: 'Não foi possível processar a solicitação',
  badRequestText: 'Abra o link de novo e tente novamente.',
  previewText: 'Um plano de assinatura. Abra este link no seu navegador para assinar.',
  subscribe: 'Assinar',
};

const ALL: Readonly<Record<Locale, PlanLinkMessages>> = { en, es, pt };

export function planLinkMessagesFor(locale: Locale): PlanLinkMessages {
  return ALL[locale];
}
