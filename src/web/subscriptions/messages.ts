import type { IntervalType } from '../../domain/subscriptions/payment-link.ts';
import type { RecurrentPaymentStatus } from '../../domain/subscriptions/recurrent-payment.status.ts';
import type { Locale } from '../kit/locale.ts';

/**
 * The payer's subscription pages' own texts, in the checkout's three languages. The layout's
 * (test banner, footer, switcher) and the card fields' labels and errors are the checkout's.
 */
export type SubscriptionMessages = {
  /** After the page's title in the browser's tab. */
  siteName: string;
  statuses: Record<RecurrentPaymentStatus, string>;
  /** The price per period: "$12.50 every month". */
  pricePer: (amount: string, interval: IntervalType) => string;
  /** A plan of a fixed number of payments: "6 monthly payments". */
  payments: (count: number, interval: IntervalType) => string;
  /** A length of time: "7 days" (a free trial). */
  duration: (count: number, interval: IntervalType) => string;
  untilCanceled: string;
  /** Periods paid of a plan with an end: "1 of 6". */
  periodsOf: (paid: number, total: number) => string;
  /** The current period, from one date to another (both already written). */
  period: (from: string, to: string) => string;
  nextTry: string;
  endsOn: string;
  firstPayment: string;
  nextPayment: string;
  status: string;
  plan: string;
  freeTrial: string;
  signupFee: string;
  periodsPaid: string;
  currentPeriod: string;
  paymentMethod: string;
  reference: string;
  subscriber: string;
  payNow: string;
  changeCard: string;
  changeCardHint: string;
  saveCard: string;
  cancelHeading: string;
  cancelHint: string;
  cancelLink: string;
  confirmTitle: (title: string) => string;
  /** Under the confirmation's title: the price, then what cancelling means. */
  confirmText: (price: string) => string;
  confirmCancel: string;
  keep: string;
  /** Notices after a redirect or a refused change, from a closed list. */
  notices: { card: string; canceled: string; cannotCancel: string; cannotChangeCard: string };
  states: Record<'notFound' | 'csrf' | 'error' | 'badRequest', readonly [string, string]>;
  back: string;
};

const EN_UNITS: Record<IntervalType, readonly [string, string]> = {
  DAY: ['day', 'days'],
  WEEK: ['week', 'weeks'],
  MONTH: ['month', 'months'],
  YEAR: ['year', 'years'],
};
const EN_ADVERB: Record<IntervalType, string> = { DAY: 'daily', WEEK: 'weekly', MONTH: 'monthly', YEAR: 'yearly' };

const ES_UNITS: Record<IntervalType, readonly [string, string]> = {
  DAY: ['día', 'días'],
  WEEK: ['semana', 'semanas'],
  MONTH: ['mes', 'meses'],
  YEAR: ['año', 'años'],
};
const ES_ADJECTIVE: Record<IntervalType, readonly [string, string]> = {
  DAY: ['diario', 'diarios'],
  WEEK: ['semanal', 'semanales'],
  MONTH: ['mensual', 'mensuales'],
  YEAR: ['anual', 'anuales'],
};

const PT_UNITS: Record<IntervalType, readonly [string, string]> = {
  DAY: ['dia', 'dias'],
  WEEK: ['semana', 'semanas'],
  MONTH: ['mês', 'meses'],
  YEAR: ['ano', 'anos'],
};
const PT_ADJECTIVE: Record<IntervalType, readonly [string, string]> = {
  DAY: ['diário', 'diários'],
  WEEK: ['semanal', 'semanais'],
  MONTH: ['mensal', 'mensais'],
  YEAR: ['anual', 'anuais'],
};

/** The singular or the plural of a pair. */
const one = (count: number, [singular, plural]: readonly [string, string]): string => (count === 1 ? singular : plural);

const en: SubscriptionMessages = {
  siteName: 'Your subscription',
  statuses: {
    PENDING: 'Waiting for the first payment',
    TRIALING: 'Free trial',
    ACTIVE: 'Active',
    UNPAID: 'Payment failed',
    CANCELED: 'Canceled',
    COMPLETE: 'Completed: every period is paid',
    INCOMPLETE: 'The first payment failed',
    REJECTED: 'The first payment was refused',
    EXPIRED: 'Expired before the first payment',
  },
  pricePer: (amount, interval) => `${amount} every ${EN_UNITS[interval][0]}`,
  payments: (count, interval) => `${count} ${EN_ADVERB[interval]} ${one(count, ['payment', 'payments'])}`,
  duration: (count, interval) => `${count} ${one(count, EN_UNITS[interval])}`,
  untilCanceled: 'Until you cancel',
  periodsOf: (paid, total) => `${paid} of ${total}`,
  period: (from, to) => `${from} to ${to}`,
  nextTry: 'Next try',
  endsOn: 'Ends on',
  firstPayment: 'First payment',
  nextPayment: 'Next payment',
  status: 'Status',
  plan: 'Plan',
  freeTrial: 'Free trial',
  signupFee: 'Sign-up fee',
  periodsPaid: 'Periods paid',
  currentPeriod: 'Current period',
  paymentMethod: 'Payment method',
  reference: 'Reference',
  subscriber: 'Subscriber',
  payNow: 'Pay the renewal now',
  changeCard: 'Change card',
  changeCardHint:
    'The new card is charged from the next payment on; nothing is charged now. The card processor keeps it, not this site.',
  saveCard: 'Save card',
  cancelHeading: 'Cancel',
  cancelHint: 'No further payments are taken once you cancel.',
  cancelLink: 'Cancel subscription',
  confirmTitle: (title) => `Cancel ${title}?`,
  confirmText: (price) =>
    `${price}. After you cancel, no further payment is taken and the subscription cannot be resumed.`,
  confirmCancel: 'Yes, cancel subscription',
  keep: 'Keep subscription',
  notices: {
    card: 'Your new card is saved. The next payment will be charged to it.',
    canceled: 'Your subscription is canceled. No further payment will be taken.',
    cannotCancel: 'This subscription cannot be canceled any more.',
    cannotChangeCard: 'The card of this subscription cannot be changed any more.',
  },
  states: {
    notFound: [
      'Subscription not found',
      'This link is not valid. Open the most recent e-mail about your subscription and use its link.',
    ],
    csrf: ['This form has expired', 'Go back to your subscription, reload the page and try again.'],
    error: ['Something went wrong', 'Nothing was changed. Please try again in a moment.'],
    badRequest: ['This request could not be handled', 'Go back to your subscription and try again.'],
  },
  back: 'Back to your subscription',
};

const es: SubscriptionMessages = {
  siteName: 'Tu suscripción',
  statuses: {
    PENDING: 'Esperando el primer pago',
    TRIALING: 'Prueba gratis',
    ACTIVE: 'Activa',
    UNPAID: 'El pago falló',
    CANCELED: 'Cancelada',
    COMPLETE: 'Completada: todos los períodos están pagados',
    INCOMPLETE: 'El primer pago falló',
    REJECTED: 'El primer pago fue rechazado',
    EXPIRED: 'Venció antes del primer pago',
  },
  pricePer: (amount, interval) => `${amount} por ${ES_UNITS[interval][0]}`,
  payments: (count, interval) => `${count} ${one(count, ['pago', 'pagos'])} ${one(count, ES_ADJECTIVE[interval])}`,
  duration: (count, interval) => `${count} ${one(count, ES_UNITS[interval])}`,
  untilCanceled: 'Hasta que la canceles',
  periodsOf: (paid, total) => `${paid} de ${total}`,
  period: (from, to) => `Del ${from} al ${to}`,
  nextTry: 'Próximo intento',
  endsOn: 'Termina el',
  firstPayment: 'Primer pago',
  nextPayment: 'Próximo pago',
  status: 'Estado',
  plan: 'Plan',
  freeTrial: 'Prueba gratis',
  signupFee: 'Cargo de inscripción',
  periodsPaid: 'Períodos pagados',
  currentPeriod: 'Período actual',
  paymentMethod: 'Método de pago',
  reference: 'Referencia',
  subscriber: 'Suscriptor',
  payNow: 'Pagar la renovación ahora',
  changeCard: 'Cambiar tarjeta',
  changeCardHint:
    'La nueva tarjeta se cobra a partir del próximo pago; ahora no se cobra nada. La guarda el procesador de tarjetas, no este sitio.',
  saveCard: 'Guardar tarjeta',
  cancelHeading: 'Cancelar',
  cancelHint: 'Cuando canceles, no se cobra ningún pago más.',
  cancelLink: 'Cancelar suscripción',
  confirmTitle: (title) => `¿Cancelar ${title}?`,
  confirmText: (price) =>
    `${price}. Cuando canceles, no se cobra ningún pago más y la suscripción no se puede reanudar.`,
  confirmCancel: 'Sí, cancelar suscripción',
  keep: 'Mantener suscripción',
  notices: {
    card: 'Tu nueva tarjeta quedó guardada. El próximo pago se cobrará en ella.',
    canceled: 'Tu suscripción está cancelada. No se cobrará ningún pago más.',
    cannotCancel: 'Esta suscripción ya no se puede cancelar.',
    cannotChangeCard: 'La tarjeta de esta suscripción ya no se puede cambiar.',
  },
  states: {
    notFound: [
      'No encontramos esta suscripción',
      'Este enlace no es válido. Abre el correo más reciente sobre tu suscripción y usa su enlace.',
    ],
    csrf: ['Este formulario venció', 'Vuelve a tu suscripción, recarga la página y vuelve a intentarlo.'],
    error: ['Algo salió mal', 'No se cambió nada. Vuelve a intentarlo en un momento.'],
    badRequest: ['No se pudo procesar la solicitud', 'Vuelve a tu suscripción y vuelve a intentarlo.'],
  },
  back: 'Volver a tu suscripción',
};

const pt: SubscriptionMessages = {
  siteName: 'Sua assinatura',
  statuses: {
    PENDING: 'Aguardando o primeiro pagamento',
    TRIALING: 'Período grátis',
    ACTIVE: 'Ativa',
    UNPAID: 'O pagamento falhou',
    CANCELED: 'Cancelada',
    COMPLETE: 'Concluída: todos os períodos estão pagos',
    INCOMPLETE: 'O primeiro pagamento falhou',
    REJECTED: 'O primeiro pagamento foi recusado',
    EXPIRED: 'Expirou antes do primeiro pagamento',
  },
  pricePer: (amount, interval) => `${amount} por ${PT_UNITS[interval][0]}`,
  payments: (count, interval) =>
    `${count} ${one(count, ['pagamento', 'pagamentos'])} ${one(count, PT_ADJECTIVE[interval])}`,
  duration: (count, interval) => `${count} ${one(count, PT_UNITS[interval])}`,
  untilCanceled: 'Até você cancelar',
  periodsOf: (paid, total) => `${paid} de ${total}`,
  period: (from, to) => `De ${from} a ${to}`,
  nextTry: 'Próxima tentativa',
  endsOn: 'Termina em',
  firstPayment: 'Primeiro pagamento',
  nextPayment: 'Próximo pagamento',
  status: 'Status',
  plan: 'Plano',
  freeTrial: 'Período grátis',
  signupFee: 'Taxa de adesão',
  periodsPaid: 'Períodos pagos',
  currentPeriod: 'Período atual',
  paymentMethod: 'Forma de pagamento',
  reference: 'Referência',
  subscriber: 'Assinante',
  payNow: 'Pagar a renovação agora',
  changeCard: 'Trocar cartão',
  changeCardHint:
    'O novo cartão é cobrado a partir do próximo pagamento; nada é cobrado agora. Quem guarda o cartão é o processador de cartões, não este site.',
  saveCard: 'Salvar cartão',
  cancelHeading: 'Cancelar',
  cancelHint: 'Depois de cancelar, nenhum pagamento é cobrado.',
  cancelLink: 'Cancelar assinatura',
  confirmTitle: (title) => `Cancelar ${title}?`,
  confirmText: (price) =>
    `${price}. Depois de cancelar, nenhum pagamento é cobrado e a assinatura não pode ser retomada.`,
  confirmCancel: 'Sim, cancelar assinatura',
  keep: 'Manter assinatura',
  notices: {
    card: 'Seu novo cartão foi salvo. O próximo pagamento será cobrado nele.',
    canceled: 'Sua assinatura foi cancelada. Nenhum pagamento será cobrado.',
    cannotCancel: 'Esta assinatura não pode mais ser cancelada.',
    cannotChangeCard: 'O cartão desta assinatura não pode mais ser trocado.',
  },
  states: {
    notFound: [
      'Assinatura não encontrada',
      'Este link não é válido. Abra o e-mail mais recente sobre a sua assinatura e use o link dele.',
    ],
    csrf: ['Este formulário expirou', 'Volte à sua assinatura, recarregue a página e tente novamente.'],
    error: ['Algo deu errado', 'Nada foi alterado. Tente novamente em instantes.'],
    badRequest: ['Não foi possível processar a solicitação', 'Volte à sua assinatura e tente novamente.'],
  },
  back: 'Voltar à sua assinatura',
};

const ALL: Readonly<Record<Locale, SubscriptionMessages>> = { en, es, pt };

export function subscriptionMessagesFor(locale: Locale): SubscriptionMessages {
  return ALL[locale];
}
