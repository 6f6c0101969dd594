/**
 * The payer pages' texts (checkout, payment instructions, subscription pages, plan links) in
 * English, Spanish and Portuguese. A page speaks one language, the payer's: its labels are its
 * accessible names, so a Portuguese page has no English label (tests of the English page find
 * fields by the English ones, tests of any page by the fields' ids).
 */

import type { Locale } from './locale.ts';

/** The labelled controls of the payer's forms (the checkout and the subscription page's card change). */
export type LabelKey =
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'phone'
  | 'card_number'
  | 'card_expiry'
  | 'card_cvc'
  | 'card_holder_name'
  | 'pay';

/** Every text of the payer pages. */
export type Messages = {
  locale: Locale;
  htmlLang: string;
  /** BCP 47 tag for dates. */
  dateLocale: string;
  /** Field labels and the Pay button, in this language (they are the accessible names). */
  labels: Record<LabelKey, string>;
  /** What the expiry field shows before anything is typed, in this language's letters. */
  expiryPlaceholder: string;
  /** The accessible name of the language switcher. */
  languageSwitcher: string;
  checkout: string;
  testModeBanner: string;
  footer: string;
  /** Before the merchant's display name at the top of every checkout page. */
  payeeLabel: string;
  /** Before the merchant's support e-mail address. */
  payeeSupport: string;
  total: string;
  reference: string;
  payBefore: string;
  payingAs: string;
  yourDetails: string;
  paymentMethod: string;
  cardDetails: string;
  cardDetailsHint: string;
  optional: string;
  phoneHint: string;
  subscriptionCardNotice: string;
  errorSummaryTitle: string;
  errors: {
    emailRequired: string;
    emailInvalid: string;
    firstNameRequired: string;
    lastNameRequired: string;
    tooLong: string;
    phoneInvalid: string;
    methodRequired: string;
    methodInvalid: string;
    cardNumberInvalid: string;
    cardExpiryInvalid: string;
    cardExpired: string;
    cardCvcInvalid: string;
    cardHolderInvalid: string;
    cardRequired: string;
    inProgress: string;
    locked: string;
    generic: string;
  };
  paymentInProgress: string;
  viewInstructions: string;
  noMethods: string;
  methodTypeNames: Record<'CARD' | 'PIX' | 'CRYPTO_ONCHAIN' | 'BANK_TRANSFER' | 'CASH', string>;
  /** A crypto method: the token and its network ("USDC on Ethereum"). */
  cryptoOn: (currency: string, network: string) => string;
  /** A cash method paid at a network of shops ("Cash (OXXO)"). */
  cashAt: (provider: string) => string;
  /** The boleto's own instructions (a bank slip, paid in a bank's app or at a lottery shop, not "at a location"). */
  boletoInstructions: string;
  /** The accessible name of a voucher's barcode, before its digits. */
  barcode: string;
  payWith: (method: string) => string;
  waiting: string;
  waitingNoScript: string;
  checkStatus: string;
  chooseAnother: string;
  simulate: string;
  simulateHint: string;
  copy: string;
  copied: string;
  qrLabel: string;
  pixInstructions: string;
  pixCode: string;
  validUntil: string;
  /** The amount is written with its code, as the reader writes money ("12,500000 USDT"). */
  cryptoInstructions: (amount: string, network: string) => string;
  address: string;
  amount: string;
  network: string;
  openWallet: string;
  confirmations: (n: number) => string;
  /** Crypto: all that is due was seen on chain, `confirmations` of `required` so far. */
  chainSeen: (confirmations: number, required: number) => string;
  /** Crypto: less than is due was seen; amounts already written with their code, in the charged currency. */
  chainPartial: (received: string, due: string, remaining: string) => string;
  bankInstructions: string;
  bankName: string;
  accountHolder: string;
  accountNumber: string;
  routing: string;
  cashInstructions: (provider: string) => string;
  barcodeNumber: string;
  cardPending: string;
  cardUsed: (brand: string, last4: string) => string;
  resultPaidTitle: string;
  resultPaidText: string;
  resultFailedTitle: string;
  failure: Record<'card_declined' | 'insufficient_funds' | 'processing_error' | 'processor_unavailable', string>;
  failureGeneric: string;
  /** The card step when the card fields are the merchant's card processor's (Stripe's Payment Element). */
  hostedCard: {
    intro: string;
    needsJavaScript: string;
    unavailable: string;
    retry: string;
    payerAction: string;
    processingTitle: string;
    processingText: string;
    problem: string;
  };
  resultExpiredTitle: string;
  resultExpiredText: string;
  resultRefundedTitle: string;
  tryAgain: string;
  closeHint: string;
  expiredTitle: string;
  expiredText: string;
  paidTitle: string;
  paidText: string;
  notFoundTitle: string;
  notFoundText: string;
  csrfTitle: string;
  csrfText: string;
  backToCheckout: string;
  errorTitle: string;
  errorText: string;
  badRequestTitle: string;
  badRequestText: string;
};

const en: Messages = {
  locale: 'en',
  htmlLang: 'en',
  dateLocale: 'en-GB',
  labels: {
    email: 'Email',
    first_name: 'First name',
    last_name: 'Last name',
    phone: 'Phone',
    card_number: 'Card number',
    card_expiry: 'Expiry date (MM/YY)',
    card_cvc: 'Security code',
    card_holder_name: 'Name on card',
    pay: 'Pay',
  },
  expiryPlaceholder: 'MM/YY',
  languageSwitcher: 'Language',
  checkout: 'Checkout',
  testModeBanner: 'Test mode: no real money moves. Use test cards, or the simulate button on the payment page.',
  footer: 'Payments processed by Cobro',
  payeeLabel: 'Payment to',
  payeeSupport: 'Questions about this payment?',
  total: 'Total',
  reference: 'Reference',
  payBefore: 'Pay before',
  payingAs: 'Paying as',
  yourDetails: 'Your details',
  paymentMethod: 'Payment method',
  cardDetails: 'Card details',
  cardDetailsHint: 'Only needed when you pay by card.',
  optional: '(optional)',
  phoneHint: 'With the country code, for example +55 11 98765 4321.',
  subscriptionCardNotice:
    'This is a subscription: the card processor keeps your card (not this site) to charge each renewal.',
  errorSummaryTitle: 'There is a problem',
  errors: {
    emailRequired: 'Enter your email address.',
    emailInvalid: 'Enter a valid email address, like name@example.com.',
    firstNameRequired: 'Enter your first name.',
    lastNameRequired: 'Enter your last name.',
    tooLong: 'This is too long.',
    phoneInvalid: 'Enter a phone number with its country code: 8 to 15 digits, optionally starting with +.',
    methodRequired: 'Choose a payment method.',
    methodInvalid: 'This payment method is not available for this checkout. Choose another one.',
    cardNumberInvalid: 'Enter a valid card number.',
    cardExpiryInvalid: 'Enter the expiry date as MM/YY.',
    cardExpired: 'This card has expired.',
    cardCvcInvalid: 'Enter the security code: 3 digits, or 4 on American Express.',
    cardHolderInvalid: 'Enter the name as printed on the card, in letters.',
    cardRequired: 'Enter your card details.',
    inProgress: 'A payment for this checkout is already being processed. Wait a moment, then try again.',
    locked: 'Too many declined card attempts. Ask the merchant for a new payment link.',
    generic: 'The payment could not be started. Please try again.',
  },
  paymentInProgress: 'You have already started a payment for this checkout.',
  viewInstructions: 'See the payment instructions',
  noMethods: 'No payment method is available for this checkout. Please contact the merchant.',
  methodTypeNames: {
    CARD: 'Card',
    PIX: 'PIX',
    CRYPTO_ONCHAIN: 'Crypto',
    BANK_TRANSFER: 'Bank transfer',
    CASH: 'Cash',
  },
  cryptoOn: (currency, network) => `${currency} on ${network}`,
  cashAt: (provider) => `Cash (${provider})`,
  boletoInstructions:
    'Pay the boleto before the due date in your bank app, at a bank or at a lottery shop: scan the barcode or type its number.',
  barcode: 'Barcode',
  payWith: (method) => `Pay with ${method}`,
  waiting: 'Waiting for your payment. This page updates by itself.',
  waitingNoScript: 'When you have paid, check the payment status with the button below.',
  checkStatus: 'Check payment status',
  chooseAnother: 'Choose another payment method',
  simulate: 'Simulate payment received',
  simulateHint: 'Test mode only: marks this payment as received, as the provider would.',
  copy: 'Copy',
  copied: 'Copied',
  qrLabel: 'Payment QR code',
  pixInstructions: 'Scan the QR code with your bank app, or copy the PIX code and paste it in the app.',
  pixCode: 'PIX copy-and-paste code',
  validUntil: 'Valid until',
  cryptoInstructions: (amount, network) => `Send exactly ${amount} on the ${network} network to the address below.`,
  address: 'Address',
  amount: 'Amount',
  network: 'Network',
  openWallet: 'Open in wallet',
  confirmations: (n) => `The payment counts once it has ${n} confirmation${n === 1 ? '' : 's'}.`,
  chainSeen: (confirmations, required) =>
    `Payment seen — ${confirmations} of ${required} confirmation${required === 1 ? '' : 's'}.`,
  chainPartial: (received, due, remaining) =>
    `Received ${received} of ${due} — send the remaining ${remaining} to the same address.`,
  bankInstructions: 'Make a bank transfer with these details. Quote the reference so your payment can be matched.',
  bankName: 'Bank',
  accountHolder: 'Account holder',
  accountNumber: 'Account number',
  routing: 'Routing / branch code',
  cashInstructions: (provider) =>
    `Pay in cash at any ${provider} location before the due date. Show the barcode or give the reference number.`,
  barcodeNumber: 'Barcode number',
  cardPending: 'Your card payment is being confirmed.',
  cardUsed: (brand, last4) => `${brand} ending in ${last4}`,
  resultPaidTitle: 'Payment received',
  resultPaidText: 'Thank you, your payment was received.',
  resultFailedTitle: 'Payment not completed',
  failure: {
    card_declined: 'Your card was declined. Please use a different card or contact your bank.',
    insufficient_funds: 'Your card has insufficient funds. Please use a different card.',
    processing_error: 'We could not process your card right now. Please try again in a moment.',
    processor_unavailable: 'We could not reach the card processor. Please try again in a moment.',
  },
  failureGeneric: 'The payment was not completed.',
  hostedCard: {
    intro: 'Your card details go straight to Stripe, the card processor; this site never sees them.',
    needsJavaScript:
      'Paying by card needs JavaScript: the card fields are Stripe’s and load with it. Turn JavaScript on and reload this page, or choose another method.',
    unavailable: 'We could not reach the card processor. Nothing was charged. Please try again in a moment.',
    retry: 'Try again',
    payerAction: 'Your bank asked you to confirm this payment. Press Pay to confirm it.',
    processingTitle: 'Your payment is being processed',
    processingText: 'This usually takes a few seconds. This page checks again by itself.',
    problem: 'We could not confirm this payment. Please contact the merchant before paying again.',
  },
  resultExpiredTitle: 'This payment has expired',
  resultExpiredText: 'The time to complete this payment has passed.',
  resultRefundedTitle: 'This payment was refunded',
  tryAgain: 'Try again',
  closeHint: 'You can close this page.',
  expiredTitle: 'This checkout has expired',
  expiredText: 'The time to pay has passed. Ask the merchant for a new payment link.',
  paidTitle: 'This checkout has already been paid',
  paidText: 'There is nothing more to do. You can close this page.',
  notFoundTitle: 'Checkout not found',
  notFoundText: 'Check the link you were given, or ask the merchant for a new one.',
  csrfTitle: 'This form has expired',
  csrfText: 'For your security the form was not sent. Open the checkout again and retry.',
  backToCheckout: 'Back to the checkout',
  errorTitle: 'Something went wrong',
  errorText: 'Please try again in a moment.',
  badRequestTitle: 'The request could not be processed',
  badRequestText: 'Open the checkout again and retry.',
};

const es: Messages = {
  locale: 'es',
  htmlLang: 'es',
  dateLocale: 'es',
  expiryPlaceholder: 'MM/AA',
  languageSwitcher: 'Idioma',
  labels: {
    email: 'Correo electrónico',
    first_name: 'Nombre',
    last_name: 'Apellido',
    phone: 'Teléfono',
    card_number: 'Número de tarjeta',
    card_expiry: 'Fecha de vencimiento (MM/AA)',
    card_cvc: 'Código de seguridad',
    card_holder_name: 'Nombre en la tarjeta',
    pay: 'Pagar',
  },
  checkout: 'Pago',
  testModeBanner:
    'Modo de prueba: no se mueve dinero real. Usa tarjetas de prueba o el botón de simulación en la página de pago.',
  footer: 'Pagos procesados por Cobro',
  payeeLabel: 'Pago a',
  payeeSupport: '¿Preguntas sobre este pago?',
  total: 'Total',
  reference: 'Referencia',
  payBefore: 'Paga antes de',
  payingAs: 'Pagas como',
  yourDetails: 'Tus datos',
  paymentMethod: 'Método de pago',
  cardDetails: 'Datos de la tarjeta',
  cardDetailsHint: 'Solo si pagas con tarjeta.',
  optional: '(opcional)',
  phoneHint: 'Con el código de país, por ejemplo +52 55 1234 5678.',
  subscriptionCardNotice:
    'Es una suscripción: el procesador de tarjetas (no este sitio) guarda tu tarjeta para cobrar cada renovación.',
  errorSummaryTitle: 'Hay un problema',
  errors: {
    emailRequired: 'Escribe tu correo electrónico.',
    emailInvalid: 'Escribe un correo electrónico válido, como nombre@ejemplo.com.',
    firstNameRequired: 'Escribe tu nombre.',
    lastNameRequired: 'Escribe tu apellido.',
    tooLong: 'Es demasiado largo.',
    phoneInvalid: 'Escribe un teléfono con código de país: de 8 a 15 dígitos, con + opcional.',
    methodRequired: 'Elige un método de pago.',
    methodInvalid: 'Este método de pago no está disponible para este pago. Elige otro.',
    cardNumberInvalid: 'Escribe un número de tarjeta válido.',
    cardExpiryInvalid: 'Escribe la fecha de vencimiento como MM/AA.',
    cardExpired: 'Esta tarjeta está vencida.',
    cardCvcInvalid: 'Escribe el código de seguridad: 3 dígitos, o 4 en American Express.',
    cardHolderInvalid: 'Escribe el nombre como aparece en la tarjeta, con letras.',
    cardRequired: 'Escribe los datos de tu tarjeta.',
    inProgress: 'Ya se está procesando un pago para esta compra. Espera un momento y vuelve a intentarlo.',
    locked: 'Demasiados intentos rechazados. Pide al comercio un nuevo enlace de pago.',
    generic: 'No se pudo iniciar el pago. Vuelve a intentarlo.',
  },
  paymentInProgress: 'Ya iniciaste un pago para esta compra.',
  viewInstructions: 'Ver las instrucciones de pago',
  noMethods: 'No hay ningún método de pago disponible para esta compra. Contacta al comercio.',
  methodTypeNames: {
    CARD: 'Tarjeta',
    PIX: 'PIX',
    CRYPTO_ONCHAIN: 'Cripto',
    BANK_TRANSFER: 'Transferencia bancaria',
    CASH: 'Efectivo',
  },
  cryptoOn: (currency, network) => `${currency} en ${network}`,
  cashAt: (provider) => `Efectivo (${provider})`,
  boletoInstructions:
    'Paga el boleto antes del vencimiento en la app de tu banco, en un banco o en una lotería: escanea el código de barras o escribe su número.',
  barcode: 'Código de barras',
  payWith: (method) => `Paga con ${method}`,
  waiting: 'Esperando tu pago. Esta página se actualiza sola.',
  waitingNoScript: 'Cuando hayas pagado, consulta el estado con el botón de abajo.',
  checkStatus: 'Consultar el estado del pago',
  chooseAnother: 'Elegir otro método de pago',
  simulate: 'Simular pago recibido',
  simulateHint: 'Solo en modo de prueba: marca el pago como recibido, como lo haría el proveedor.',
  copy: 'Copiar',
  copied: 'Copiado',
  qrLabel: 'Código QR de pago',
  pixInstructions: 'Escanea el código QR con la app de tu banco, o copia el código PIX y pégalo en la app.',
  pixCode: 'Código PIX copia y pega',
  validUntil: 'Válido hasta',
  cryptoInstructions: (amount, network) => `Envía exactamente ${amount} por la red ${network} a la dirección de abajo.`,
  address: 'Dirección',
  amount: 'Monto',
  network: 'Red',
  openWallet: 'Abrir en la billetera',
  confirmations: (n) => `El pago cuenta cuando tiene ${n} confirmaci${n === 1 ? 'ón' : 'ones'}.`,
  chainSeen: (confirmations, required) =>
    `Pago detectado — ${confirmations} de ${required} confirmaci${required === 1 ? 'ón' : 'ones'}.`,
  chainPartial: (received, due, remaining) =>
    `Recibimos ${received} de ${due} — envía los ${remaining} restantes a la misma dirección.`,
  bankInstructions: 'Haz una transferencia con estos datos. Indica la referencia para que podamos identificar tu pago.',
  bankName: 'Banco',
  accountHolder: 'Titular',
  accountNumber: 'Número de cuenta',
  routing: 'Código de sucursal',
  cashInstructions: (provider) =>
    `Paga en efectivo en cualquier punto ${provider} antes del vencimiento. Muestra el código de barras o da el número de referencia.`,
  barcodeNumber: 'Número del código de barras',
  cardPending: 'Estamos confirmando el pago con tu tarjeta.',
  cardUsed: (brand, last4) => `${brand} terminada en ${last4}`,
  resultPaidTitle: 'Pago recibido',
  resultPaidText: 'Gracias, recibimos tu pago.',
  resultFailedTitle: 'El pago no se completó',
  failure: {
    card_declined: 'Tu tarjeta fue rechazada. Usa otra tarjeta o contacta a tu banco.',
    insufficient_funds: 'Tu tarjeta no tiene fondos suficientes. Usa otra tarjeta.',
    processing_error: 'No pudimos procesar tu tarjeta en este momento. Vuelve a intentarlo en un momento.',
    processor_unavailable: 'No pudimos contactar al procesador de tarjetas. Vuelve a intentarlo en un momento.',
  },
  failureGeneric: 'El pago no se completó.',
  hostedCard: {
    intro: 'Los datos de tu tarjeta van directamente a Stripe, el procesador de tarjetas; este sitio nunca los ve.',
    needsJavaScript:
      'Para pagar con tarjeta se necesita JavaScript: los campos de la tarjeta son de Stripe y se cargan con él. Activa JavaScript y recarga esta página, o elige otro método.',
    unavailable: 'No pudimos contactar al procesador de tarjetas. No se cobró nada. Vuelve a intentarlo en un momento.',
    retry: 'Reintentar',
    payerAction: 'Tu banco pidió que confirmes este pago. Pulsa Pagar para confirmarlo.',
    processingTitle: 'Tu pago se está procesando',
    processingText: 'Suele tardar unos segundos. Esta página vuelve a comprobarlo sola.',
    problem: 'No pudimos confirmar este pago. Contacta al comercio antes de volver a pagar.',
  },
  resultExpiredTitle: 'Este pago venció',
  resultExpiredText: 'Pasó el tiempo para completar este pago.',
  resultRefundedTitle: 'Este pago fue reembolsado',
  tryAgain: 'Intentar de nuevo',
  closeHint: 'Puedes cerrar esta página.',
  expiredTitle: 'Este pago venció',
  expiredText: 'Pasó el tiempo para pagar. Pide al comercio un nuevo enlace de pago.',
  paidTitle: 'Este pago ya se realizó',
  paidText: 'No hay nada más que hacer. Puedes cerrar esta página.',
  notFoundTitle: 'No encontramos este pago',
  notFoundText: 'Revisa el enlace que recibiste o pide uno nuevo al comercio.',
  csrfTitle: 'Este formulario venció',
  csrfText: 'Por tu seguridad no se envió el formulario. Abre el pago de nuevo y vuelve a intentarlo.',
  backToCheckout: 'Volver al pago',
  errorTitle: 'Algo salió mal',
  errorText: 'Vuelve a intentarlo en un momento.',
  badRequestTitle: 'No se pudo procesar la solicitud',
  badRequestText: 'Abre el pago de nuevo y vuelve a intentarlo.',
};

const pt: Messages = {
  locale: 'pt',
  htmlLang: 'pt-BR',
  dateLocale: 'pt-BR',
  expiryPlaceholder: 'MM/AA',
  languageSwitcher: 'Idioma',
  labels: {
    email: 'E-mail',
    first_name: 'Nome',
    last_name: 'Sobrenome',
    phone: 'Telefone',
    card_number: 'Número do cartão',
    card_expiry: 'Validade (MM/AA)',
    card_cvc: 'Código de segurança',
    card_holder_name: 'Nome no cartão',
    pay: 'Pagar',
  },
  checkout: 'Pagamento',
  testModeBanner:
    'Modo de teste: nenhum dinheiro real é movimentado. Use cartões de teste ou o botão de simulação na página de pagamento.',
  footer: 'Pagamentos processados por Cobro',
  payeeLabel: 'Pagamento para',
  payeeSupport: 'Dúvidas sobre este pagamento?',
  total: 'Total',
  reference: 'Referência',
  payBefore: 'Pague até',
  payingAs: 'Pagando como',
  yourDetails: 'Seus dados',
  paymentMethod: 'Forma de pagamento',
  cardDetails: 'Dados do cartão',
  cardDetailsHint: 'Só se você pagar com cartão.',
  optional: '(opcional)',
  phoneHint: 'Com o código do país, por exemplo +55 11 98765 4321.',
  subscriptionCardNotice:
    'É uma assinatura: o processador de cartões (não este site) guarda o seu cartão para cobrar cada renovação.',
  errorSummaryTitle: 'Há um problema',
  errors: {
    emailRequired: 'Informe seu e-mail.',
    emailInvalid: 'Informe um e-mail válido, como nome@exemplo.com.',
    firstNameRequired: 'Informe seu nome.',
    lastNameRequired: 'Informe seu sobrenome.',
    tooLong: 'Está longo demais.',
    phoneInvalid: 'Informe um telefone com o código do país: de 8 a 15 dígitos, com + opcional.',
    methodRequired: 'Escolha uma forma de pagamento.',
    methodInvalid: 'Esta forma de pagamento não está disponível para esta compra. Escolha outra.',
    cardNumberInvalid: 'Informe um número de cartão válido.',
    cardExpiryInvalid: 'Informe a validade como MM/AA.',
    cardExpired: 'Este cartão está vencido.',
    cardCvcInvalid: 'Informe o código de segurança: 3 dígitos, ou 4 no American Express.',
    cardHolderInvalid: 'Informe o nome como está impresso no cartão, com letras.',
    cardRequired: 'Informe os dados do seu cartão.',
    inProgress: 'Já há um pagamento desta compra em processamento. Aguarde um momento e tente novamente.',
    locked: 'Muitas tentativas recusadas. Peça ao lojista um novo link de pagamento.',
    generic: 'Não foi possível iniciar o pagamento. Tente novamente.',
  },
  paymentInProgress: 'Você já iniciou um pagamento para esta compra.',
  viewInstructions: 'Ver as instruções de pagamento',
  noMethods: 'Nenhuma forma de pagamento está disponível para esta compra. Fale com o lojista.',
  methodTypeNames: {
    CARD: 'Cartão',
    PIX: 'PIX',
    CRYPTO_ONCHAIN: 'Cripto',
    BANK_TRANSFER: 'Transferência bancária',
    CASH: 'Dinheiro',
  },
  cryptoOn: (currency, network) => `${currency} na ${network}`,
  cashAt: (provider) => `Dinheiro (${provider})`,
  boletoInstructions:
    'Pague o boleto até o vencimento no app do seu banco, numa agência ou numa lotérica: leia o código de barras ou digite o número.',
  barcode: 'Código de barras',
  payWith: (method) => `Pague com ${method}`,
  waiting: 'Aguardando o seu pagamento. Esta página se atualiza sozinha.',
  waitingNoScript: 'Depois de pagar, verifique o status com o botão abaixo.',
  checkStatus: 'Verificar o status do pagamento',
  chooseAnother: 'Escolher outra forma de pagamento',
  simulate: 'Simular pagamento recebido',
  simulateHint: 'Só no modo de teste: marca o pagamento como recebido, como o provedor faria.',
  copy: 'Copiar',
  copied: 'Copiado',
  qrLabel: 'QR code de pagamento',
  pixInstructions: 'Leia o QR code com o app do seu banco, ou copie o código PIX e cole no app.',
  pixCode: 'Código PIX copia e cola',
  validUntil: 'Válido até',
  cryptoInstructions: (amount, network) => `Envie exatamente ${amount} pela rede ${network} para o endereço abaixo.`,
  address: 'Endereço',
  amount: 'Valor',
  network: 'Rede',
  openWallet: 'Abrir na carteira',
  confirmations: (n) => `O pagamento vale depois de ${n} confirmaç${n === 1 ? 'ão' : 'ões'}.`,
  chainSeen: (confirmations, required) =>
    `Pagamento detectado — ${confirmations} de ${required} confirmaç${required === 1 ? 'ão' : 'ões'}.`,
  chainPartial: (received, due, remaining) =>
    `Recebemos ${received} de ${due} — envie os ${remaining} restantes para o mesmo endereço.`,
  bankInstructions: 'Faça uma transferência com estes dados. Informe a referência para identificarmos o pagamento.',
  bankName: 'Banco',
  accountHolder: 'Titular',
  accountNumber: 'Número da conta',
  routing: 'Agência',
  cashInstructions: (provider) =>
    `Pague em dinheiro em qualquer ponto ${provider} até o vencimento. Mostre o código de barras ou informe o número de referência.`,
  barcodeNumber: 'Número do código de barras',
  cardPending: 'Estamos confirmando o pagamento com o seu cartão.',
  cardUsed: (brand, last4) => `${brand} final ${last4}`,
  resultPaidTitle: 'Pagamento recebido',
  resultPaidText: 'Obrigado, recebemos o seu pagamento.',
  resultFailedTitle: 'O pagamento não foi concluído',
  failure: {
    card_declined: 'Seu cartão foi recusado. Use outro cartão ou fale com o seu banco.',
    insufficient_funds: 'Seu cartão não tem saldo suficiente. Use outro cartão.',
    processing_error: 'Não conseguimos processar o seu cartão agora. Tente novamente em instantes.',
    processor_unavailable: 'Não conseguimos falar com o processador de cartões. Tente novamente em instantes.',
  },
  failureGeneric: 'O pagamento não foi concluído.',
  hostedCard: {
    intro: 'Os dados do seu cartão vão direto para a Stripe, o processador de cartões; este site nunca os vê.',
    needsJavaScript:
      'Pagar com cartão precisa de JavaScript: os campos do cartão são da Stripe e carregam com ele. Ative o JavaScript e recarregue esta página, ou escolha outro método.',
    unavailable: 'Não conseguimos falar com o processador de cartões. Nada foi cobrado. Tente novamente em instantes.',
    retry: 'Tentar novamente',
    payerAction: 'Seu banco pediu que você confirme este pagamento. Toque em Pagar para confirmá-lo.',
    processingTitle: 'Seu pagamento está sendo processado',
    processingText: 'Isso costuma levar alguns segundos. Esta página verifica de novo sozinha.',
    problem: 'Não conseguimos confirmar este pagamento. Fale com o lojista antes de pagar de novo.',
  },
  resultExpiredTitle: 'Este pagamento expirou',
  resultExpiredText: 'O prazo para concluir este pagamento terminou.',
  resultRefundedTitle: 'Este pagamento foi reembolsado',
  tryAgain: 'Tentar novamente',
  closeHint: 'Você pode fechar esta página.',
  expiredTitle: 'Este pagamento expirou',
  expiredText: 'O prazo para pagar terminou. Peça ao lojista um novo link de pagamento.',
  paidTitle: 'Este pagamento já foi feito',
  paidText: 'Não há mais nada a fazer. Você pode fechar esta página.',
  notFoundTitle: 'Pagamento não encontrado',
  notFoundText: 'Confira o link que você recebeu ou peça um novo ao lojista.',
  csrfTitle: 'Este formulário expirou',
  csrfText: 'Para sua segurança o formulário não foi enviado. Abra o pagamento de novo e tente novamente.',
  backToCheckout: 'Voltar ao pagamento',
  errorTitle: 'Algo deu errado',
  errorText: 'Tente novamente em instantes.',
  badRequestTitle: 'Não foi possível processar a solicitação',
  badRequestText: 'Abra o pagamento de novo e tente novamente.',
};

const ALL: Readonly<Record<Locale, Messages>> = { en, es, pt };

export function messagesFor(locale: Locale): Messages {
  return ALL[locale];
}

/** Date and time in UTC, in the page's language (payers and merchants may be in different zones). */
export function formatDateTime(ms: number, messages: Messages): string {
  const text = new Intl.DateTimeFormat(messages.dateLocale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(ms));
  return `${text} UTC`;
}
