import type { Words } from './words.ts';

/** Settings → Payment connections: the merchant's own processor accounts. */
export const connectionsWords = {
  'Payment connections': { es: 'Conexiones de pago', pt: 'Conexões de pagamento' },
  'Your own processor accounts: payers pay through them, and the money goes from the processor to you. Cobro keeps the keys sealed and never shows them again.':
    {
      es: 'Tus propias cuentas de procesador: los pagadores pagan a través de ellas y el dinero va del procesador a ti. Cobro guarda las claves cifradas y nunca vuelve a mostrarlas.',
      pt: 'Suas próprias contas de processador: os pagadores pagam por meio delas e o dinheiro vai do processador para você. O Cobro guarda as chaves cifradas e nunca volta a mostrá-las.',
    },
  'This page connects test mode: use test keys here. Live keys go on the live dashboard’s page.': {
    es: 'Esta página conecta el modo de prueba: usa aquí claves de prueba. Las claves reales van en la página del panel real.',
    pt: 'Esta página conecta o modo de teste: use aqui chaves de teste. As chaves reais vão na página do painel real.',
  },
  'This page connects live mode: use live keys here. Test keys go on the test dashboard’s page.': {
    es: 'Esta página conecta el modo real: usa aquí claves reales. Las claves de prueba van en la página del panel de prueba.',
    pt: 'Esta página conecta o modo real: use aqui chaves reais. As chaves de teste vão na página do painel de teste.',
  },
  'Card payments through your Stripe account, with the card fields hosted by Stripe.': {
    es: 'Pagos con tarjeta a través de tu cuenta de Stripe, con los campos de la tarjeta alojados por Stripe.',
    pt: 'Pagamentos com cartão pela sua conta Stripe, com os campos do cartão hospedados pela Stripe.',
  },
  Account: { es: 'Cuenta', pt: 'Conta' },
  Mode: { es: 'Modo', pt: 'Modo' },
  Live: { es: 'Real', pt: 'Real' },
  Test: { es: 'Prueba', pt: 'Teste' },
  'Secret key': { es: 'Clave secreta', pt: 'Chave secreta' },
  'Publishable key': { es: 'Clave publicable', pt: 'Chave publicável' },
  'Cannot be read with this server’s secrets key: disconnect and connect again.': {
    es: 'No se puede leer con la clave de secretos de este servidor: desconecta y vuelve a conectar.',
    pt: 'Não pode ser lida com a chave de segredos deste servidor: desconecte e conecte de novo.',
  },
  'Webhook URL': { es: 'URL del webhook', pt: 'URL do webhook' },
  '(created by Cobro in your Stripe account)': {
    es: '(creado por Cobro en tu cuenta de Stripe)',
    pt: '(criado pelo Cobro na sua conta Stripe)',
  },
  'Yours: make Stripe send the card events to the webhook URL (docs/connectors/stripe.md lists them).': {
    es: 'El tuyo: haz que Stripe envíe los eventos de tarjeta a la URL del webhook (docs/connectors/stripe.md los enumera).',
    pt: 'O seu: faça a Stripe enviar os eventos de cartão para a URL do webhook (docs/connectors/stripe.md os lista).',
  },
  Connected: { es: 'Conectado', pt: 'Conectado' },
  'Last event received': { es: 'Último evento recibido', pt: 'Último evento recebido' },
  'None yet': { es: 'Ninguno aún', pt: 'Nenhum ainda' },
  'Last error': { es: 'Último error', pt: 'Último erro' },
  None: { es: 'Ninguno', pt: 'Nenhum' },
  'Test connection': { es: 'Probar conexión', pt: 'Testar conexão' },
  Disconnect: { es: 'Desconectar', pt: 'Desconectar' },
  'Connection works: Stripe accepted the key for account {account}.': {
    es: 'La conexión funciona: Stripe aceptó la clave de la cuenta {account}.',
    pt: 'A conexão funciona: a Stripe aceitou a chave da conta {account}.',
  },
  'The test failed: {reason}.': { es: 'La prueba falló: {reason}.', pt: 'O teste falhou: {reason}.' },
  'Not connected in live mode.': { es: 'Sin conectar en modo real.', pt: 'Não conectado no modo real.' },
  'Not connected in test mode.': { es: 'Sin conectar en modo de prueba.', pt: 'Não conectado no modo de teste.' },
  'Your keys are in the Stripe dashboard, under Developers → API keys. Cobro checks them with one call to Stripe and creates the webhook endpoint before it stores anything.':
    {
      es: 'Tus claves están en el panel de Stripe, en Desarrolladores → Claves de API. Cobro las verifica con una llamada a Stripe y crea el endpoint de webhook antes de guardar nada.',
      pt: 'Suas chaves estão no painel da Stripe, em Desenvolvedores → Chaves de API. O Cobro as verifica com uma chamada à Stripe e cria o endpoint de webhook antes de guardar qualquer coisa.',
    },
  'sk_live_… or a restricted key rk_live_…. Never shown again.': {
    es: 'sk_live_… o una clave restringida rk_live_…. No se vuelve a mostrar.',
    pt: 'sk_live_… ou uma chave restrita rk_live_…. Não é mostrada de novo.',
  },
  'sk_test_… or a restricted key rk_test_…. Never shown again.': {
    es: 'sk_test_… o una clave restringida rk_test_…. No se vuelve a mostrar.',
    pt: 'sk_test_… ou uma chave restrita rk_test_…. Não é mostrada de novo.',
  },
  'Webhook signing secret (optional)': {
    es: 'Secreto de firma del webhook (opcional)',
    pt: 'Segredo de assinatura do webhook (opcional)',
  },
  'Only if you created the webhook endpoint yourself in Stripe: its signing secret (whsec_…). Leave it empty and Cobro creates the endpoint.':
    {
      es: 'Solo si creaste tú el endpoint de webhook en Stripe: su secreto de firma (whsec_…). Déjalo vacío y Cobro crea el endpoint.',
      pt: 'Só se você mesmo criou o endpoint de webhook na Stripe: o segredo de assinatura dele (whsec_…). Deixe vazio e o Cobro cria o endpoint.',
    },
  'Connect Stripe': { es: 'Conectar Stripe', pt: 'Conectar Stripe' },
  'Stripe connected.': { es: 'Stripe conectado.', pt: 'Stripe conectada.' },
  'Stripe disconnected: its keys are forgotten and the webhook endpoint Cobro created is deleted.': {
    es: 'Stripe desconectado: sus claves se olvidaron y el endpoint de webhook que creó Cobro se eliminó.',
    pt: 'Stripe desconectada: as chaves foram esquecidas e o endpoint de webhook que o Cobro criou foi excluído.',
  },
  'Stripe disconnected: its keys are forgotten.': {
    es: 'Stripe desconectado: sus claves se olvidaron.',
    pt: 'Stripe desconectada: as chaves foram esquecidas.',
  },
  'The webhook endpoint {endpoint} could not be deleted in your Stripe account: delete it in the Stripe dashboard.': {
    es: 'No se pudo eliminar el endpoint de webhook {endpoint} en tu cuenta de Stripe: elimínalo en el panel de Stripe.',
    pt: 'Não foi possível excluir o endpoint de webhook {endpoint} na sua conta Stripe: exclua-o no painel da Stripe.',
  },
  'Stripe is already connected in this mode: disconnect it first.': {
    es: 'Stripe ya está conectado en este modo: desconéctalo primero.',
    pt: 'A Stripe já está conectada neste modo: desconecte-a primeiro.',
  },
  'Enter the secret key.': { es: 'Escribe la clave secreta.', pt: 'Digite a chave secreta.' },
  'Enter the publishable key.': { es: 'Escribe la clave publicable.', pt: 'Digite a chave publicável.' },
  'These are live keys, and this is the test dashboard: connect them on the live dashboard.': {
    es: 'Estas son claves reales y este es el panel de prueba: conéctalas en el panel real.',
    pt: 'Estas são chaves reais e este é o painel de teste: conecte-as no painel real.',
  },
  'These are test keys, and this is the live dashboard: connect them on the test dashboard.': {
    es: 'Estas son claves de prueba y este es el panel real: conéctalas en el panel de prueba.',
    pt: 'Estas são chaves de teste e este é o painel real: conecte-as no painel de teste.',
  },
  'Disconnect Stripe from live mode?': {
    es: '¿Desconectar Stripe del modo real?',
    pt: 'Desconectar a Stripe do modo real?',
  },
  'Disconnect Stripe from test mode?': {
    es: '¿Desconectar Stripe del modo de prueba?',
    pt: 'Desconectar a Stripe do modo de teste?',
  },
  'Cobro deletes the webhook endpoint it created in your Stripe account and forgets the keys of account {account}. To take card payments through Stripe again, connect it again.':
    {
      es: 'Cobro elimina el endpoint de webhook que creó en tu cuenta de Stripe y olvida las claves de la cuenta {account}. Para volver a cobrar con tarjeta a través de Stripe, conéctalo de nuevo.',
      pt: 'O Cobro exclui o endpoint de webhook que criou na sua conta Stripe e esquece as chaves da conta {account}. Para voltar a receber com cartão pela Stripe, conecte-a de novo.',
    },
} satisfies Words;
