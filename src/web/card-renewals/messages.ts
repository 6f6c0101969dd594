import type { Locale } from '../../domain/shared/language.ts';

/** The words of the page where a subscriber confirms a card renewal with their bank, and of its return page. */
export type CardRenewalMessages = {
  title: string;
  explain: (title: string, amount: string) => string;
  confirm: string;
  /** Shown while Stripe's window is open, and when the browser cannot run it. */
  working: string;
  noScript: string;
  paidTitle: string;
  paid: (title: string, amount: string) => string;
  processingTitle: string;
  processing: string;
  failedTitle: string;
  failed: string;
  tryAgain: string;
  closedTitle: string;
  closed: string;
  manage: string;
};

const en: CardRenewalMessages = {
  title: 'Confirm your payment',
  explain: (title, amount) =>
    `Your bank asks you to confirm the renewal of "${title}" (${amount}) with the card you subscribed with.`,
  confirm: 'Confirm with my bank',
  working: 'Waiting for your bank…',
  noScript: 'This step needs JavaScript: your bank’s confirmation window runs in the page.',
  paidTitle: 'Payment confirmed',
  paid: (title, amount) => `Thank you: the renewal of "${title}" (${amount}) is paid.`,
  processingTitle: 'Payment in progress',
  processing: 'Your bank is still processing the payment. This page will say so once it is done: come back later.',
  failedTitle: 'The payment did not go through',
  failed: 'Your bank did not confirm the payment. You can try again.',
  tryAgain: 'Try again',
  closedTitle: 'Nothing to confirm',
  closed: 'This renewal is no longer waiting for you: it was paid, or its time to confirm ran out.',
  manage: 'Your subscription',
};

const es: CardRenewalMessages = {
  title: 'Confirma tu pago',
  explain: (title, amount) =>
    `Tu banco pide que confirmes la renovación de "${title}" (${amount}) con la tarjeta con la que te suscribiste.`,
  confirm: 'Confirmar con mi banco',
  working: 'Esperando a tu banco…',
  noScript: 'Este paso necesita JavaScript: la ventana de confirmación de tu banco se abre en la página.',
  paidTitle: 'Pago confirmado',
  paid: (title, amount) => `Gracias: la renovación de "${title}" (${amount}) está pagada.`,
  processingTitle: 'Pago en proceso',
  processing: 'Tu banco todavía está procesando el pago. Esta página lo dirá cuando termine: vuelve más tarde.',
  failedTitle: 'El pago no se realizó',
  failed: 'Tu banco no confirmó el pago. Puedes intentarlo de nuevo.',
  tryAgain: 'Intentar de nuevo',
  closedTitle: 'Nada que confirmar',
  closed: 'Esta renovación ya no espera tu confirmación: se pagó o venció el plazo para confirmarla.',
  manage: 'Tu suscripción',
};

const pt: CardRenewalMessages = {
  title: 'Confirme seu pagamento',
  explain: (title, amount) =>
    `Seu banco pede que você confirme a renovação de "${title}" (${amount}) com o cartão da sua assinatura.`,
  confirm: 'Confirmar com meu banco',
  working: 'Aguardando seu banco…',
  noScript: 'Esta etapa precisa de JavaScript: a janela de confirmação do seu banco abre na página.',
  paidTitle: 'Pagamento confirmado',
  paid: (title, amount) => `Obrigado: a renovação de "${title}" (${amount}) está paga.`,
  processingTitle: 'Pagamento em processamento',
  processing: 'Seu banco ainda está processando o pagamento. Esta página dirá quando terminar: volte mais tarde.',
  failedTitle: 'O pagamento não foi concluído',
  failed: 'Seu banco não confirmou o pagamento. Você pode tentar de novo.',
  tryAgain: 'Tentar de novo',
  closedTitle: 'Nada a confirmar',
  closed: 'Esta renovação não espera mais sua confirmação: foi paga ou o prazo para confirmar acabou.',
  manage: 'Sua assinatura',
};

const ALL: Readonly<Record<Locale, CardRenewalMessages>> = { en, es, pt };

export function cardRenewalMessagesFor(locale: Locale): CardRenewalMessages {
  return ALL[locale];
}
