import type { Words } from './words.ts';

export const paymentsWords = {
  'Payment lists': { es: 'Listas de pagos', pt: 'Listas de pagamentos' },
  'Payment orders': { es: 'Órdenes de pago', pt: 'Ordens de pagamento' },
  'Checkout preferences': { es: 'Preferencias de checkout', pt: 'Preferências de checkout' },
  'Create a payment': { es: 'Crear un pago', pt: 'Criar um pagamento' },
  Status: { es: 'Estado', pt: 'Status' },
  Method: { es: 'Medio', pt: 'Meio' },
  'Created from (UTC)': { es: 'Creado desde (UTC)', pt: 'Criado desde (UTC)' },
  'Created to (UTC)': { es: 'Creado hasta (UTC)', pt: 'Criado até (UTC)' },
  'External ID': { es: 'ID externo', pt: 'ID externo' },
  'Payer e-mail': { es: 'Correo del pagador', pt: 'E-mail do pagador' },
  Filter: { es: 'Filtrar', pt: 'Filtrar' },
  'Clear filters': { es: 'Quitar filtros', pt: 'Limpar filtros' },
  'First page': { es: 'Primera página', pt: 'Primeira página' },
  'Next page': { es: 'Página siguiente', pt: 'Próxima página' },
  'Export these payment orders as CSV': {
    es: 'Exportar estas órdenes de pago como CSV',
    pt: 'Exportar estas ordens de pagamento como CSV',
  },
  'Payment orders, newest first': {
    es: 'Órdenes de pago, las más recientes primero',
    pt: 'Ordens de pagamento, as mais recentes primeiro',
  },
  Title: { es: 'Título', pt: 'Título' },
  Amount: { es: 'Monto', pt: 'Valor' },
  Payer: { es: 'Pagador', pt: 'Pagador' },
  'No payment orders match.': { es: 'Ninguna orden de pago coincide.', pt: 'Nenhuma ordem de pagamento corresponde.' },
  "Method: the method of the preference's latest payment order. Payer e-mail: given when it was created, or typed by the payer.":
    {
      es: 'Medio: el de la última orden de pago de la preferencia. Correo del pagador: el indicado al crearla, o el que escribió el pagador.',
      pt: 'Meio: o da última ordem de pagamento da preferência. E-mail do pagador: o informado ao criá-la, ou o digitado pelo pagador.',
    },
  'Export these checkout preferences as CSV': {
    es: 'Exportar estas preferencias de checkout como CSV',
    pt: 'Exportar estas preferências de checkout como CSV',
  },
  'Checkout preferences, newest first': {
    es: 'Preferencias de checkout, las más recientes primero',
    pt: 'Preferências de checkout, as mais recentes primeiro',
  },
  Type: { es: 'Tipo', pt: 'Tipo' },
  'No checkout preferences match.': {
    es: 'Ninguna preferencia de checkout coincide.',
    pt: 'Nenhuma preferência de checkout corresponde.',
  },
  'Confirm transfer received': { es: 'Confirmar transferencia recibida', pt: 'Confirmar transferência recebida' },
  '← Payments': { es: '← Pagos', pt: '← Pagamentos' },
  'Payment order': { es: 'Orden de pago', pt: 'Ordem de pagamento' },
  Anomaly: { es: 'Anomalía', pt: 'Anomalia' },
  Charged: { es: 'Cobrado', pt: 'Cobrado' },
  Received: { es: 'Recibido', pt: 'Recebido' },
  Origin: { es: 'Origen', pt: 'Origem' },
  Expires: { es: 'Vence', pt: 'Expira' },
  Refunded: { es: 'Reembolsado', pt: 'Reembolsado' },
  Expired: { es: 'Vencido', pt: 'Expirado' },
  Failure: { es: 'Falla', pt: 'Falha' },
  'Checkout preference': { es: 'Preferencia de checkout', pt: 'Preferência de checkout' },
  Subscription: { es: 'Suscripción', pt: 'Assinatura' },
  Name: { es: 'Nombre', pt: 'Nome' },
  'E-mail': { es: 'Correo', pt: 'E-mail' },
  Phone: { es: 'Teléfono', pt: 'Telefone' },
  'Payment instructions': { es: 'Instrucciones de pago', pt: 'Instruções de pagamento' },
  'As the payer sees them on the checkout.': {
    es: 'Como las ve el pagador en el checkout.',
    pt: 'Como o pagador as vê no checkout.',
  },
  'None: this method needs no instructions.': {
    es: 'Ninguna: este medio no necesita instrucciones.',
    pt: 'Nenhuma: este meio não precisa de instruções.',
  },
  Timeline: { es: 'Historial', pt: 'Histórico' },
  'No events yet.': { es: 'Todavía no hay eventos.', pt: 'Ainda não há eventos.' },
  '· event': { es: '· evento', pt: '· evento' },
  'No webhook deliveries (no endpoint subscribed to this event).': {
    es: 'Sin entregas de webhook (ningún endpoint está suscrito a este evento).',
    pt: 'Nenhuma entrega de webhook (nenhum endpoint inscrito neste evento).',
  },
  Time: { es: 'Hora', pt: 'Hora' },
  Endpoint: { es: 'Endpoint', pt: 'Endpoint' },
  Response: { es: 'Respuesta', pt: 'Resposta' },
  '← Back to the payment': { es: '← Volver al pago', pt: '← Voltar ao pagamento' },
  Payment: { es: 'Pago', pt: 'Pagamento' },
  Reason: { es: 'Motivo', pt: 'Motivo' },
  'Kept in the audit log. At most 500 characters.': {
    es: 'Queda en el registro de auditoría. Como máximo 500 caracteres.',
    pt: 'Fica no registro de auditoria. No máximo 500 caracteres.',
  },
  Cancel: { es: 'Cancelar', pt: 'Cancelar' },
  '← Checkout preferences': { es: '← Preferencias de checkout', pt: '← Preferências de checkout' },
  'The payment is ready. Send the payer this link, or let them scan the code.': {
    es: 'El pago está listo. Envía este enlace al pagador, o deja que escanee el código.',
    pt: 'O pagamento está pronto. Envie este link ao pagador, ou deixe que ele leia o código.',
  },
  'Checkout link': { es: 'Enlace del checkout', pt: 'Link do checkout' },
  'Checkout URL': { es: 'URL del checkout', pt: 'URL do checkout' },
  'Open the checkout': { es: 'Abrir el checkout', pt: 'Abrir o checkout' },
  Methods: { es: 'Medios', pt: 'Meios' },
  Plan: { es: 'Plan', pt: 'Plano' },
  'No payment orders yet: the payer has not chosen a method.': {
    es: 'Todavía no hay órdenes de pago: el pagador no eligió un medio.',
    pt: 'Ainda não há ordens de pagamento: o pagador não escolheu um meio.',
  },
  'Payment orders of this preference, newest first': {
    es: 'Órdenes de pago de esta preferencia, las más recientes primero',
    pt: 'Ordens de pagamento desta preferência, as mais recentes primeiro',
  },
  'A one-time payment with its own checkout link and QR code: for sales by chat or in person.': {
    es: 'Un pago único con su propio enlace de checkout y código QR: para ventas por chat o en persona.',
    pt: 'Um pagamento único com seu próprio link de checkout e QR code: para vendas por chat ou presenciais.',
  },
  'The payer sees it on the checkout.': { es: 'El pagador lo ve en el checkout.', pt: 'O pagador o vê no checkout.' },
  'For example 16.90': { es: 'Por ejemplo 16.90', pt: 'Por exemplo 16.90' },
  'Expires in': { es: 'Vence en', pt: 'Expira em' },
  'None chosen: every method that can take this amount and currency.': {
    es: 'Ninguno elegido: todos los medios que aceptan este monto y moneda.',
    pt: 'Nenhum escolhido: todos os meios que aceitam este valor e moeda.',
  },
  'External ID (optional)': { es: 'ID externo (opcional)', pt: 'ID externo (opcional)' },
  'Your own reference: an order number, a chat.': {
    es: 'Tu propia referencia: un número de pedido, un chat.',
    pt: 'Sua própria referência: um número de pedido, um chat.',
  },
  'Create payment': { es: 'Crear pago', pt: 'Criar pagamento' },
  'The event is queued for one more delivery to each of its endpoints.': {
    es: 'El evento quedó en cola para una entrega más a cada uno de sus endpoints.',
    pt: 'O evento entrou na fila para mais uma entrega a cada um dos seus endpoints.',
  },
  'The payment is refunded.': { es: 'El pago está reembolsado.', pt: 'O pagamento foi reembolsado.' },
  'The refund is asked for: the processor is still processing it. The payment becomes refunded when it reports the refund done.':
    {
      es: 'El reembolso está pedido: el procesador todavía lo está procesando. El pago pasa a reembolsado cuando informe que el reembolso está hecho.',
      pt: 'O reembolso foi pedido: o processador ainda o está processando. O pagamento passa a reembolsado quando ele informar que o reembolso foi feito.',
    },
  'Disputed by the payer': { es: 'Disputado por el pagador', pt: 'Contestado pelo pagador' },
  'Reason: {reason}': { es: 'Motivo: {reason}', pt: 'Motivo: {reason}' },
  'Evidence due by': { es: 'Pruebas hasta el', pt: 'Provas até' },
  '{provider} holds the disputed money until the dispute is decided; answer it in {provider}’s dashboard. The payment’s status does not change.':
    {
      es: '{provider} retiene el dinero disputado hasta que se decida la disputa; respóndela en el panel de {provider}. El estado del pago no cambia.',
      pt: '{provider} retém o dinheiro contestado até a contestação ser decidida; responda-a no painel de {provider}. O status do pagamento não muda.',
    },
  'The transfer is confirmed: the payment is paid.': {
    es: 'La transferencia está confirmada: el pago está pagado.',
    pt: 'A transferência está confirmada: o pagamento está pago.',
  },
  'Status must be one of {values}': {
    es: 'El estado debe ser uno de {values}',
    pt: 'O status deve ser um de {values}',
  },
  'Method must be one of {values}': { es: 'El medio debe ser uno de {values}', pt: 'O meio deve ser um de {values}' },
  'Refund {title}?': { es: '¿Reembolsar {title}?', pt: 'Reembolsar {title}?' },
  'The whole amount goes back to the card. This cannot be undone.': {
    es: 'El monto completo vuelve a la tarjeta. No se puede deshacer.',
    pt: 'O valor total volta para o cartão. Não pode ser desfeito.',
  },
  'Send the money back to the payer yourself; this records the payment as refunded and notifies your webhooks. This cannot be undone.':
    {
      es: 'Devuelve tú el dinero al pagador; esto registra el pago como reembolsado y avisa a tus webhooks. No se puede deshacer.',
      pt: 'Devolva você mesmo o dinheiro ao pagador; isto registra o pagamento como reembolsado e avisa seus webhooks. Não pode ser desfeito.',
    },
  'This payment cannot be refunded: its status is {status}.': {
    es: 'Este pago no se puede reembolsar: su estado es {status}.',
    pt: 'Este pagamento não pode ser reembolsado: seu status é {status}.',
  },
  'Reason must be at most {max} characters.': {
    es: 'El motivo debe tener como máximo {max} caracteres.',
    pt: 'O motivo deve ter no máximo {max} caracteres.',
  },
  'Confirm transfer': { es: 'Confirmar transferencia', pt: 'Confirmar transferência' },
  'Confirm the transfer for {title}?': {
    es: '¿Confirmar la transferencia de {title}?',
    pt: 'Confirmar a transferência de {title}?',
  },
  'Confirm only when the money is in your account with the reference of this payment: the payment becomes paid and your webhooks are notified.':
    {
      es: 'Confirma solo cuando el dinero esté en tu cuenta con la referencia de este pago: el pago pasa a pagado y se avisa a tus webhooks.',
      pt: 'Confirme só quando o dinheiro estiver na sua conta com a referência deste pagamento: o pagamento passa a pago e seus webhooks são avisados.',
    },
  'Only an open bank transfer can be confirmed by you.': {
    es: 'Solo puedes confirmar una transferencia bancaria abierta.',
    pt: 'Só uma transferência bancária em aberto pode ser confirmada por você.',
  },
} satisfies Words;
