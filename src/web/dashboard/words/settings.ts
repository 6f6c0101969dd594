import type { Words } from './words.ts';

/** Settings, and the frame, sign-in and account pages. */
export const settingsWords = {
  'What payers see': { es: 'Lo que ven los pagadores', pt: 'O que os pagadores veem' },
  'Payment to': { es: 'Pago a', pt: 'Pagamento para' },
  'Support e-mail': { es: 'Correo de soporte', pt: 'E-mail de suporte' },
  'Accent colour': { es: 'Color de acento', pt: 'Cor de destaque' },
  Logo: { es: 'Logo', pt: 'Logo' },
  'Business profile': { es: 'Perfil del negocio', pt: 'Perfil do negócio' },
  'What payers see of your business on the checkout page and in the e-mails sent to them. Live and test mode share one profile.':
    {
      es: 'Lo que los pagadores ven de tu negocio en la página de checkout y en los correos que reciben. Los modos real y de prueba comparten un perfil.',
      pt: 'O que os pagadores veem do seu negócio na página de checkout e nos e-mails que recebem. Os modos real e de teste compartilham um perfil.',
    },
  'Name, support e-mail and colour': {
    es: 'Nombre, correo de soporte y color',
    pt: 'Nome, e-mail de suporte e cor',
  },
  'Save profile': { es: 'Guardar perfil', pt: 'Salvar perfil' },
  'Logo file': { es: 'Archivo del logo', pt: 'Arquivo do logo' },
  'Upload logo': { es: 'Subir logo', pt: 'Enviar logo' },
  'Remove logo': { es: 'Quitar logo', pt: 'Remover logo' },
  'test default': { es: 'valor de prueba', pt: 'valor de teste' },
  'Payment settings': { es: 'Configuración de pagos', pt: 'Configurações de pagamento' },
  'Where the money of PIX, crypto and bank-transfer payments goes: payers pay your accounts directly. Live and test mode share these settings.':
    {
      es: 'Adónde va el dinero de los pagos por PIX, cripto y transferencia: los pagadores pagan directamente a tus cuentas. Los modos real y de prueba comparten esta configuración.',
      pt: 'Para onde vai o dinheiro dos pagamentos por PIX, cripto e transferência: os pagadores pagam diretamente nas suas contas. Os modos real e de teste compartilham estas configurações.',
    },
  'In test mode a method you have not set up uses working test values, so every method can be tried. Nobody should send real money to them.':
    {
      es: 'En modo de prueba, un medio que no configuraste usa valores de prueba que funcionan, para poder probar todos los medios. Nadie debe enviarles dinero real.',
      pt: 'No modo de teste, um meio que você não configurou usa valores de teste que funcionam, para que todos os meios possam ser testados. Ninguém deve enviar dinheiro real para eles.',
    },
  'Payment settings saved. New payments use them from now on.': {
    es: 'Configuración de pagos guardada. Los pagos nuevos la usan desde ahora.',
    pt: 'Configurações de pagamento salvas. Os novos pagamentos as usam a partir de agora.',
  },
  'Leave every field of a method empty to remove it. Values are checked the way the checkout will use them.': {
    es: 'Deja vacíos todos los campos de un medio para quitarlo. Los valores se verifican como los usará el checkout.',
    pt: 'Deixe todos os campos de um meio vazios para removê-lo. Os valores são verificados como o checkout vai usá-los.',
  },
  'What live payers are offered': {
    es: 'Lo que se ofrece a los pagadores en modo real',
    pt: 'O que é oferecido aos pagadores no modo real',
  },
  Offered: { es: 'Se ofrece', pt: 'Oferecido' },
  Cards: { es: 'Tarjetas', pt: 'Cartões' },
  '{currency} on {network}': { es: '{currency} en {network}', pt: '{currency} na rede {network}' },
  'Disabled on this server by its operator.': {
    es: 'El operador de este servidor lo desactivó.',
    pt: 'Desativado neste servidor pelo operador.',
  },
  'Connect your Stripe account under Payment connections to take cards.': {
    es: 'Conecta tu cuenta de Stripe en Conexiones de pago para aceptar tarjetas.',
    pt: 'Conecte sua conta Stripe em Conexões de pagamento para aceitar cartões.',
  },
  'Add a PIX key below.': { es: 'Agrega una clave PIX abajo.', pt: 'Adicione uma chave PIX abaixo.' },
  'Add your bank details below.': {
    es: 'Agrega tus datos bancarios abajo.',
    pt: 'Adicione seus dados bancários abaixo.',
  },
  'No voucher network is connected, so cash is not offered.': {
    es: 'No hay ninguna red de cupones de pago conectada, así que no se ofrece efectivo.',
    pt: 'Nenhuma rede de boletos de pagamento está conectada, então dinheiro não é oferecido.',
  },
  'This server does not watch {network} (operator: see docs/operations.md).': {
    es: 'Este servidor no vigila {network} (operador: ver docs/operations.md).',
    pt: 'Este servidor não monitora {network} (operador: veja docs/operations.md).',
  },
  'This server does not watch {currency} on {network} (operator: see docs/operations.md).': {
    es: 'Este servidor no vigila {currency} en {network} (operador: ver docs/operations.md).',
    pt: 'Este servidor não monitora {currency} na rede {network} (operador: veja docs/operations.md).',
  },
  'Add your Bitcoin extended public key below; this server watches Bitcoin {watched}.': {
    es: 'Agrega tu clave pública extendida de Bitcoin abajo; este servidor vigila Bitcoin {watched}.',
    pt: 'Adicione sua chave pública estendida de Bitcoin abaixo; este servidor monitora Bitcoin {watched}.',
  },
  'Add your EVM extended public key below; this server watches {network}.': {
    es: 'Agrega tu clave pública extendida EVM abajo; este servidor vigila {network}.',
    pt: 'Adicione sua chave pública estendida EVM abaixo; este servidor monitora {network}.',
  },
  'Your Bitcoin key is for {keyNetwork}, and this server watches Bitcoin {watched}: save a {watched} key below.': {
    es: 'Tu clave de Bitcoin es de {keyNetwork} y este servidor vigila Bitcoin {watched}: guarda una clave de {watched} abajo.',
    pt: 'Sua chave de Bitcoin é da {keyNetwork} e este servidor monitora Bitcoin {watched}: salve uma chave da {watched} abaixo.',
  },
  'Test mode offers payers every method. Live mode offers only what can take real money: the live page says what each method needs.':
    {
      es: 'El modo de prueba ofrece todos los medios a los pagadores. El modo real ofrece solo los que pueden cobrar dinero real: la página del modo real dice qué necesita cada medio.',
      pt: 'O modo de teste oferece todos os meios aos pagadores. O modo real oferece só os que podem receber dinheiro real: a página do modo real diz o que cada meio precisa.',
    },
  Bitcoin: { es: 'Bitcoin', pt: 'Bitcoin' },
  'EVM chains': { es: 'Cadenas EVM', pt: 'Redes EVM' },
  'Save payment settings': { es: 'Guardar configuración de pagos', pt: 'Salvar configurações de pagamento' },
  'Two-factor authentication is on. Keep these recovery codes somewhere safe: each works once, and they are shown only now.':
    {
      es: 'La verificación en dos pasos está activada. Guarda estos códigos de recuperación en un lugar seguro: cada uno sirve una vez y solo se muestran ahora.',
      pt: 'A verificação em duas etapas está ativada. Guarde estes códigos de recuperação em um lugar seguro: cada um funciona uma vez e eles só aparecem agora.',
    },
  'Turn off two-factor authentication': {
    es: 'Desactivar la verificación en dos pasos',
    pt: 'Desativar a verificação em duas etapas',
  },
  'Scan this code with an authenticator app (or type the key), then enter the 6-digit code it shows.': {
    es: 'Escanea este código con una app de autenticación (o escribe la clave) y luego ingresa el código de 6 dígitos que muestra.',
    pt: 'Leia este código com um app autenticador (ou digite a chave) e depois informe o código de 6 dígitos que ele mostra.',
  },
  'Key:': { es: 'Clave:', pt: 'Chave:' },
  Code: { es: 'Código', pt: 'Código' },
  'Turn on two-factor authentication': {
    es: 'Activar la verificación en dos pasos',
    pt: 'Ativar a verificação em duas etapas',
  },
  'Two-factor authentication is off.': {
    es: 'La verificación en dos pasos está desactivada.',
    pt: 'A verificação em duas etapas está desativada.',
  },
  'Set up two-factor authentication': {
    es: 'Configurar la verificación en dos pasos',
    pt: 'Configurar a verificação em duas etapas',
  },
  Security: { es: 'Seguridad', pt: 'Segurança' },
  'Two-factor authentication': { es: 'Verificación en dos pasos', pt: 'Verificação em duas etapas' },
  'Active sessions': { es: 'Sesiones activas', pt: 'Sessões ativas' },
  'Where you are signed in': { es: 'Dónde iniciaste sesión', pt: 'Onde você está conectado' },
  'Signed in': { es: 'Inicio de sesión', pt: 'Conectado em' },
  'Last seen': { es: 'Última actividad', pt: 'Última atividade' },
  Address: { es: 'Dirección', pt: 'Endereço' },
  Browser: { es: 'Navegador', pt: 'Navegador' },
  'this one': { es: 'esta', pt: 'esta' },
  Team: { es: 'Equipo', pt: 'Equipe' },
  'Invitation sent. The link is valid for 72 hours.': {
    es: 'Invitación enviada. El enlace vale por 72 horas.',
    pt: 'Convite enviado. O link vale por 72 horas.',
  },
  Members: { es: 'Miembros', pt: 'Membros' },
  Role: { es: 'Rol', pt: 'Papel' },
  'Two-factor': { es: 'Dos pasos', pt: 'Duas etapas' },
  'Change role': { es: 'Cambiar rol', pt: 'Mudar papel' },
  Remove: { es: 'Quitar', pt: 'Remover' },
  'Pending invitations': { es: 'Invitaciones pendientes', pt: 'Convites pendentes' },
  'Invite someone': { es: 'Invitar a alguien', pt: 'Convidar alguém' },
  'Send invitation': { es: 'Enviar invitación', pt: 'Enviar convite' },
  'Audit log': { es: 'Registro de auditoría', pt: 'Registro de auditoria' },
  Refused: { es: 'Rechazado', pt: 'Recusado' },
  '{count} similar refusals before this one were counted, not written.': {
    es: '{count} rechazos similares anteriores a este se contaron sin anotarse.',
    pt: '{count} recusas semelhantes anteriores a esta foram contadas sem serem registradas.',
  },
  'Every dashboard action, every refused attempt and every key, endpoint and team change, newest first': {
    es: 'Cada acción del panel, cada intento rechazado y cada cambio de claves, endpoints y equipo, las más recientes primero',
    pt: 'Cada ação do painel, cada tentativa recusada e cada mudança de chaves, endpoints e equipe, as mais recentes primeiro',
  },
  When: { es: 'Cuándo', pt: 'Quando' },
  Who: { es: 'Quién', pt: 'Quem' },
  What: { es: 'Qué', pt: 'O quê' },
  'Older entries': { es: 'Entradas anteriores', pt: 'Entradas anteriores' },
  'Email:': { es: 'Correo:', pt: 'E-mail:' },
  'Accept invitation': { es: 'Aceptar invitación', pt: 'Aceitar convite' },
  Menu: { es: 'Menú', pt: 'Menu' },
  Dashboard: { es: 'Panel', pt: 'Painel' },
  Merchant: { es: 'Comercio', pt: 'Comerciante' },
  Switch: { es: 'Cambiar', pt: 'Trocar' },
  'That code is not right. Check the clock of your device and try the next code.': {
    es: 'Ese código no es correcto. Revisa el reloj de tu dispositivo y prueba el siguiente código.',
    pt: 'Esse código não está certo. Confira o relógio do seu aparelho e tente o próximo código.',
  },
  'The password is not right.': { es: 'La contraseña no es correcta.', pt: 'A senha não está certa.' },
  'Every other session of your account is signed out: sign in there again, with a code.': {
    es: 'Se cerraron todas las demás sesiones de tu cuenta: vuelve a iniciar sesión allí, con un código.',
    pt: 'Todas as outras sessões da sua conta foram encerradas: entre de novo nelas, com um código.',
  },
  'Your password is asked again, so that a session alone cannot change how you sign in.': {
    es: 'Pedimos de nuevo tu contraseña para que una sesión sola no pueda cambiar cómo inicias sesión.',
    pt: 'Pedimos sua senha de novo para que uma sessão sozinha não possa mudar como você entra.',
  },
  'Choose an image file for the logo.': {
    es: 'Elige un archivo de imagen para el logo.',
    pt: 'Escolha um arquivo de imagem para o logo.',
  },
  'The logo is larger than {kb} KB. Make it smaller (a logo rarely needs more than 512 × 512 pixels) and try again.': {
    es: 'El logo pesa más de {kb} KB. Achícalo (un logo rara vez necesita más de 512 × 512 píxeles) y vuelve a intentarlo.',
    pt: 'O logo tem mais de {kb} KB. Diminua-o (um logo raramente precisa de mais de 512 × 512 pixels) e tente de novo.',
  },
  'Remove the logo?': { es: '¿Quitar el logo?', pt: 'Remover o logo?' },
  'Payers will see only your display name on the checkout, in e-mails and on receipts.': {
    es: 'Los pagadores verán solo tu nombre en el checkout, en los correos y en los recibos.',
    pt: 'Os pagadores verão só o seu nome no checkout, nos e-mails e nos recibos.',
  },
} satisfies Words;
