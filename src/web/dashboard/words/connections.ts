import type { Words } from './words.ts';

/** Settings → Payment connections: the merchant's own processor accounts. */
export const connectionsWords = {
  'Payment connections': { es: 'Conexiones de pago', pt: 'Conexões de pagamento' },
  'Your own processor accounts: payers pay through them, and the money goes from the processor to you. Cobro keeps the keys sealed and never shows them again.':
    {
      es: 'Tus propias cuentas de procesador: los pagadores pagan a través de ellas y el dinero va del procesador a ti. Cobro guarda las claves cifradas y nunca vuelve a mostrarlas.',
      pt: 'Suas próprias contas de processador: os pagadores pagam por meio delas e o dinheiro vai do processador para você. O Cobro guarda as chaves cifradas e nunca volta a mostrá-las.',
    },
  'This page connects test mode: use test keys here, and your PSP’s sandbox. Live keys and your PSP’s production access go on the live dashboard’s page.':
    {
      es: 'Esta página conecta el modo de prueba: usa aquí claves de prueba y el entorno de pruebas de tu PSP. Las claves reales y el acceso de producción de tu PSP van en la página del panel real.',
      pt: 'Esta página conecta o modo de teste: use aqui chaves de teste e o ambiente de homologação do seu PSP. As chaves reais e o acesso de produção do seu PSP vão na página do painel real.',
    },
  'This page connects live mode: use live keys here, and your PSP’s production access. Test keys and your PSP’s sandbox go on the test dashboard’s page.':
    {
      es: 'Esta página conecta el modo real: usa aquí claves reales y el acceso de producción de tu PSP. Las claves de prueba y el entorno de pruebas de tu PSP van en la página del panel de prueba.',
      pt: 'Esta página conecta o modo real: use aqui chaves reais e o acesso de produção do seu PSP. As chaves de teste e o ambiente de homologação do seu PSP vão na página do painel de teste.',
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
  'PIX through your bank (API Pix)': {
    es: 'PIX a través de tu banco (API Pix)',
    pt: 'PIX pelo seu banco (API Pix)',
  },
  'PIX charges at your own bank or PSP, through the Central Bank’s API Pix: each order gets its own code, and Cobro learns from your PSP when it is paid.':
    {
      es: 'Cobros PIX en tu propio banco o PSP, mediante la API Pix del Banco Central: cada orden recibe su propio código y Cobro sabe por tu PSP cuándo se pagó.',
      pt: 'Cobranças PIX no seu próprio banco ou PSP, pela API Pix do Banco Central: cada pedido recebe o próprio código, e o Cobro sabe pelo seu PSP quando foi pago.',
    },
  'PIX key': {
    es: 'Clave PIX',
    pt: 'Chave PIX',
  },
  Profile: {
    es: 'Perfil',
    pt: 'Perfil',
  },
  'The Central Bank’s specification as written (bcb)': {
    es: 'La especificación del Banco Central tal como está escrita (bcb)',
    pt: 'A especificação do Banco Central como está escrita (bcb)',
  },
  'API Pix address': {
    es: 'Dirección de la API Pix',
    pt: 'Endereço da API Pix',
  },
  'Token address': {
    es: 'Dirección del token',
    pt: 'Endereço do token',
  },
  'Token address (optional)': {
    es: 'Dirección del token (opcional)',
    pt: 'Endereço do token (opcional)',
  },
  'Client ID': {
    es: 'ID de cliente',
    pt: 'Client ID',
  },
  'Client secret': {
    es: 'Secreto de cliente',
    pt: 'Client secret',
  },
  'Client secret and certificate': {
    es: 'Secreto de cliente y certificado',
    pt: 'Client secret e certificado',
  },
  'Kept sealed; never shown.': {
    es: 'Guardados cifrados; nunca se muestran.',
    pt: 'Guardados cifrados; nunca são mostrados.',
  },
  '(registered at your PSP for the PIX key; notifications arrive at it and at its /pix)': {
    es: '(registrada en tu PSP para la clave PIX; las notificaciones llegan a ella y a su /pix)',
    pt: '(registrada no seu PSP para a chave PIX; as notificações chegam a ela e ao seu /pix)',
  },
  'Last notification received': {
    es: 'Última notificación recibida',
    pt: 'Última notificação recebida',
  },
  'Connection works: your PSP gave a token for these credentials and notifies Cobro’s webhook URL for the PIX key {key}.':
    {
      es: 'La conexión funciona: tu PSP dio un token para estas credenciales y notifica a la URL del webhook de Cobro para la clave PIX {key}.',
      pt: 'A conexão funciona: seu PSP deu um token para estas credenciais e notifica a URL do webhook do Cobro para a chave PIX {key}.',
    },
  'Use the production credentials your PSP issued for its API Pix. Cobro asks your PSP for a token with them and registers its webhook for your PIX key before it stores anything.':
    {
      es: 'Usa las credenciales de producción que tu PSP emitió para su API Pix. Cobro pide a tu PSP un token con ellas y registra su webhook para tu clave PIX antes de guardar nada.',
      pt: 'Use as credenciais de produção que seu PSP emitiu para a API Pix dele. O Cobro pede ao seu PSP um token com elas e registra o webhook para a sua chave PIX antes de guardar qualquer coisa.',
    },
  'Use the credentials of your PSP’s homologation (test) environment. Cobro asks your PSP for a token with them and registers its webhook for your PIX key before it stores anything.':
    {
      es: 'Usa las credenciales del entorno de homologación (prueba) de tu PSP. Cobro pide a tu PSP un token con ellas y registra su webhook para tu clave PIX antes de guardar nada.',
      pt: 'Use as credenciais do ambiente de homologação (teste) do seu PSP. O Cobro pede ao seu PSP um token com elas e registra o webhook para a sua chave PIX antes de guardar qualquer coisa.',
    },
  'Where your PSP departs from the Central Bank’s specification, as it documents it. Any other PSP: bcb.': {
    es: 'Donde tu PSP se aparta de la especificación del Banco Central, según lo documenta. Cualquier otro PSP: bcb.',
    pt: 'Onde o seu PSP se afasta da especificação do Banco Central, conforme ele documenta. Qualquer outro PSP: bcb.',
  },
  'Your PSP’s API Pix root, https://… (with efi or inter, the host alone is enough).': {
    es: 'La raíz de la API Pix de tu PSP, https://… (con efi o inter basta con el host).',
    pt: 'A raiz da API Pix do seu PSP, https://… (com efi ou inter, basta o host).',
  },
  'Only if your PSP gives one apart; otherwise the profile’s.': {
    es: 'Solo si tu PSP da una aparte; si no, la del perfil.',
    pt: 'Só se o seu PSP informar um à parte; senão, o do perfil.',
  },
  'Never shown again.': {
    es: 'No se vuelve a mostrar.',
    pt: 'Não é mostrado de novo.',
  },
  'Client certificate': {
    es: 'Certificado de cliente',
    pt: 'Certificado do cliente',
  },
  'The certificate your PSP issued with these credentials: a PEM file (.crt, .pem), or a PKCS#12 bundle (.p12, .pfx) holding the certificate and its key.':
    {
      es: 'El certificado que tu PSP emitió con estas credenciales: un archivo PEM (.crt, .pem) o un paquete PKCS#12 (.p12, .pfx) con el certificado y su clave.',
      pt: 'O certificado que seu PSP emitiu com estas credenciais: um arquivo PEM (.crt, .pem) ou um pacote PKCS#12 (.p12, .pfx) com o certificado e a chave dele.',
    },
  'Private key (PEM certificate only)': {
    es: 'Clave privada (solo certificado PEM)',
    pt: 'Chave privada (só certificado PEM)',
  },
  'The PEM private key (.key, .pem) of a PEM certificate. Leave it empty with a PKCS#12 bundle.': {
    es: 'La clave privada PEM (.key, .pem) de un certificado PEM. Déjala vacía con un paquete PKCS#12.',
    pt: 'A chave privada PEM (.key, .pem) de um certificado PEM. Deixe vazio com um pacote PKCS#12.',
  },
  'PKCS#12 password (optional)': {
    es: 'Contraseña del PKCS#12 (opcional)',
    pt: 'Senha do PKCS#12 (opcional)',
  },
  'Only for a PKCS#12 bundle that has one. Never shown again.': {
    es: 'Solo para un paquete PKCS#12 que la tenga. No se vuelve a mostrar.',
    pt: 'Só para um pacote PKCS#12 que tenha uma. Não é mostrada de novo.',
  },
  'Your PSP’s CA certificate (optional)': {
    es: 'Certificado de la CA de tu PSP (opcional)',
    pt: 'Certificado da CA do seu PSP (opcional)',
  },
  'Only if your PSP’s server certificate is not signed by a public authority (homologation hosts often are not): its CA certificate, PEM.':
    {
      es: 'Solo si el certificado del servidor de tu PSP no está firmado por una autoridad pública (los hosts de homologación a menudo no lo están): el certificado de su CA, en PEM.',
      pt: 'Só se o certificado do servidor do seu PSP não for assinado por uma autoridade pública (os hosts de homologação muitas vezes não são): o certificado da CA dele, em PEM.',
    },
  'Your key at this PSP (e-mail, phone, CNPJ or random key): charges are made to it.': {
    es: 'Tu clave en este PSP (correo, teléfono, CNPJ o clave aleatoria): los cobros se hacen a ella.',
    pt: 'Sua chave neste PSP (e-mail, telefone, CNPJ ou chave aleatória): as cobranças são feitas para ela.',
  },
  'Connect PIX': {
    es: 'Conectar PIX',
    pt: 'Conectar PIX',
  },
  'PIX connected.': {
    es: 'PIX conectado.',
    pt: 'PIX conectado.',
  },
  'PIX disconnected: its credentials and certificate are forgotten and the webhook Cobro registered for the PIX key is removed at your PSP.':
    {
      es: 'PIX desconectado: sus credenciales y su certificado se olvidaron y el webhook que Cobro registró para la clave PIX se eliminó en tu PSP.',
      pt: 'PIX desconectado: as credenciais e o certificado foram esquecidos e o webhook que o Cobro registrou para a chave PIX foi removido no seu PSP.',
    },
  'PIX disconnected: its credentials and certificate are forgotten.': {
    es: 'PIX desconectado: sus credenciales y su certificado se olvidaron.',
    pt: 'PIX desconectado: as credenciais e o certificado foram esquecidos.',
  },
  'The webhook of the PIX key {key} could not be removed at your PSP: remove it in your PSP’s portal.': {
    es: 'No se pudo eliminar el webhook de la clave PIX {key} en tu PSP: elimínalo en el portal de tu PSP.',
    pt: 'Não foi possível remover o webhook da chave PIX {key} no seu PSP: remova-o no portal do seu PSP.',
  },
  'PIX is already connected in this mode: disconnect it first.': {
    es: 'PIX ya está conectado en este modo: desconéctalo primero.',
    pt: 'O PIX já está conectado neste modo: desconecte-o primeiro.',
  },
  'The file is larger than {kb} KB: choose the certificate file your PSP issued.': {
    es: 'El archivo pesa más de {kb} KB: elige el archivo de certificado que emitió tu PSP.',
    pt: 'O arquivo tem mais de {kb} KB: escolha o arquivo de certificado que seu PSP emitiu.',
  },
  'Choose the client certificate file.': {
    es: 'Elige el archivo del certificado de cliente.',
    pt: 'Escolha o arquivo do certificado do cliente.',
  },
  'A PEM certificate needs its private key: choose the key file.': {
    es: 'Un certificado PEM necesita su clave privada: elige el archivo de la clave.',
    pt: 'Um certificado PEM precisa da chave privada: escolha o arquivo da chave.',
  },
  'This is not a PEM private key (-----BEGIN … PRIVATE KEY-----).': {
    es: 'Esto no es una clave privada PEM (-----BEGIN … PRIVATE KEY-----).',
    pt: 'Isto não é uma chave privada PEM (-----BEGIN … PRIVATE KEY-----).',
  },
  'This is not a PEM certificate (-----BEGIN CERTIFICATE-----).': {
    es: 'Esto no es un certificado PEM (-----BEGIN CERTIFICATE-----).',
    pt: 'Isto não é um certificado PEM (-----BEGIN CERTIFICATE-----).',
  },
  'Enter your PSP’s API Pix address.': {
    es: 'Escribe la dirección de la API Pix de tu PSP.',
    pt: 'Digite o endereço da API Pix do seu PSP.',
  },
  'Enter the client ID.': {
    es: 'Escribe el ID de cliente.',
    pt: 'Digite o client ID.',
  },
  'Enter the client secret.': {
    es: 'Escribe el secreto de cliente.',
    pt: 'Digite o client secret.',
  },
  'Enter your PIX key.': {
    es: 'Escribe tu clave PIX.',
    pt: 'Digite sua chave PIX.',
  },
  'Disconnect PIX from live mode?': {
    es: '¿Desconectar PIX del modo real?',
    pt: 'Desconectar o PIX do modo real?',
  },
  'Disconnect PIX from test mode?': {
    es: '¿Desconectar PIX del modo de prueba?',
    pt: 'Desconectar o PIX do modo de teste?',
  },
  'Cobro removes the webhook it registered at your PSP for the PIX key {key} and forgets the credentials and the certificate. PIX charges still open lapse at your PSP. To make PIX charges through your PSP again, connect it again.':
    {
      es: 'Cobro elimina el webhook que registró en tu PSP para la clave PIX {key} y olvida las credenciales y el certificado. Los cobros PIX aún abiertos vencen en tu PSP. Para volver a cobrar con PIX a través de tu PSP, conéctalo de nuevo.',
      pt: 'O Cobro remove o webhook que registrou no seu PSP para a chave PIX {key} e esquece as credenciais e o certificado. As cobranças PIX ainda abertas expiram no seu PSP. Para voltar a cobrar com PIX pelo seu PSP, conecte-o de novo.',
    },
} satisfies Words;
