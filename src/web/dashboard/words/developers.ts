import type { Words } from './words.ts';

export const developersWords = {
  'API keys': { es: 'Claves de API', pt: 'Chaves de API' },
  'Webhook endpoints': { es: 'Endpoints de webhook', pt: 'Endpoints de webhook' },
  Events: { es: 'Eventos', pt: 'Eventos' },
  'Every event with its payload and delivery attempts; redeliver.': {
    es: 'Cada evento con su contenido e intentos de entrega; reenviar.',
    pt: 'Cada evento com seu conteúdo e tentativas de entrega; reenviar.',
  },
  'Keys of': { es: 'Claves del modo', pt: 'Chaves do modo' },
  'mode. A request authenticates with a key (': {
    es: '. Una solicitud se autentica con una clave (',
    pt: '. Uma requisição se autentica com uma chave (',
  },
  ') and its secret (': { es: ') y su secreto (', pt: ') e seu segredo (' },
  '); the secret is shown once, when the pair is created.': {
    es: '); el secreto se muestra una sola vez, al crear el par.',
    pt: '); o segredo é mostrado uma única vez, ao criar o par.',
  },
  'Create a key pair': { es: 'Crear un par de claves', pt: 'Criar um par de chaves' },
  'Say where it is used, like "Shop server". Optional.': {
    es: 'Indica dónde se usa, como "Servidor de la tienda". Opcional.',
    pt: 'Diga onde é usado, como "Servidor da loja". Opcional.',
  },
  'Create key pair': { es: 'Crear par de claves', pt: 'Criar par de chaves' },
  'API keys, newest first': {
    es: 'Claves de API, las más recientes primero',
    pt: 'Chaves de API, as mais recentes primeiro',
  },
  Key: { es: 'Clave', pt: 'Chave' },
  'Last used': { es: 'Último uso', pt: 'Último uso' },
  Actions: { es: 'Acciones', pt: 'Ações' },
  'No keys in this mode.': { es: 'No hay claves en este modo.', pt: 'Não há chaves neste modo.' },
  Unnamed: { es: 'Sin nombre', pt: 'Sem nome' },
  Active: { es: 'Activa', pt: 'Ativa' },
  Revoke: { es: 'Revocar', pt: 'Revogar' },
  '"Last used" is recorded at most once an hour.': {
    es: '"Último uso" se registra como máximo una vez por hora.',
    pt: '"Último uso" é registrado no máximo uma vez por hora.',
  },
  'Key pair created': { es: 'Par de claves creado', pt: 'Par de chaves criado' },
  'Copy the secret now: it is shown only on this page, never again.': {
    es: 'Copia el secreto ahora: solo se muestra en esta página, nunca más.',
    pt: 'Copie o segredo agora: ele só aparece nesta página, nunca mais.',
  },
  'Store it where your server reads its configuration; if it is lost, create a new pair and revoke this one.': {
    es: 'Guárdalo donde tu servidor lee su configuración; si se pierde, crea un par nuevo y revoca este.',
    pt: 'Guarde-o onde seu servidor lê a configuração; se for perdido, crie um novo par e revogue este.',
  },
  'API key (': { es: 'Clave de API (', pt: 'Chave de API (' },
  'API secret (': { es: 'Secreto de API (', pt: 'Segredo de API (' },
  'Revoke key': { es: 'Revocar clave', pt: 'Revogar chave' },
  'New endpoint': { es: 'Nuevo endpoint', pt: 'Novo endpoint' },
  'Webhook endpoints, newest first': {
    es: 'Endpoints de webhook, los más recientes primero',
    pt: 'Endpoints de webhook, os mais recentes primeiro',
  },
  Description: { es: 'Descripción', pt: 'Descrição' },
  'No endpoints yet.': { es: 'Todavía no hay endpoints.', pt: 'Ainda não há endpoints.' },
  'Preference webhooks': { es: 'Webhooks de preferencias', pt: 'Webhooks de preferências' },
  "Deliveries to a checkout preference's": {
    es: 'Las entregas al campo de una preferencia de checkout',
    pt: 'As entregas ao campo de uma preferência de checkout',
  },
  "are signed with the merchant's signing secret of this mode.": {
    es: 'se firman con el secreto de firma del comercio en este modo.',
    pt: 'são assinadas com o segredo de assinatura do comerciante neste modo.',
  },
  'Reveal signing secret': { es: 'Mostrar el secreto de firma', pt: 'Mostrar o segredo de assinatura' },
  'Rotate signing secret': { es: 'Rotar el secreto de firma', pt: 'Trocar o segredo de assinatura' },
  'Your role cannot read the signing secret.': {
    es: 'Tu rol no puede leer el secreto de firma.',
    pt: 'Seu papel não pode ler o segredo de assinatura.',
  },
  Enabled: { es: 'Activado', pt: 'Ativado' },
  Disabled: { es: 'Desactivado', pt: 'Desativado' },
  'An https address on the public internet; events are POSTed to it, signed.': {
    es: 'Una dirección https en internet pública; los eventos se le envían por POST, firmados.',
    pt: 'Um endereço https na internet pública; os eventos são enviados a ele por POST, assinados.',
  },
  'Event types': { es: 'Tipos de evento', pt: 'Tipos de evento' },
  'None checked: every event type, including types added later.': {
    es: 'Ninguno marcado: todos los tipos de evento, incluidos los que se agreguen después.',
    pt: 'Nenhum marcado: todos os tipos de evento, incluindo os adicionados depois.',
  },
  'Copy it now: this page is the only place it is shown.': {
    es: 'Cópialo ahora: esta página es el único lugar donde se muestra.',
    pt: 'Copie agora: esta página é o único lugar onde ele aparece.',
  },
  'The previous secret keeps signing too (a second': {
    es: 'El secreto anterior también sigue firmando (una segunda firma',
    pt: 'O segredo anterior também continua assinando (uma segunda assinatura',
  },
  'signature) until': { es: ') hasta el', pt: ') até' },
  ': update your receiver before then.': {
    es: ': actualiza tu receptor antes de esa fecha.',
    pt: ': atualize seu receptor antes disso.',
  },
  'Webhook endpoint': { es: 'Endpoint de webhook', pt: 'Endpoint de webhook' },
  Edit: { es: 'Editar', pt: 'Editar' },
  'Send test event': { es: 'Enviar evento de prueba', pt: 'Enviar evento de teste' },
  Disable: { es: 'Desactivar', pt: 'Desativar' },
  Enable: { es: 'Activar', pt: 'Ativar' },
  'Rotate secret': { es: 'Rotar secreto', pt: 'Trocar segredo' },
  Delete: { es: 'Eliminar', pt: 'Excluir' },
  'Recent deliveries': { es: 'Entregas recientes', pt: 'Entregas recentes' },
  'No deliveries yet.': { es: 'Todavía no hay entregas.', pt: 'Ainda não há entregas.' },
  Event: { es: 'Evento', pt: 'Evento' },
  Attempt: { es: 'Intento', pt: 'Tentativa' },
  Error: { es: 'Error', pt: 'Erro' },
  '(preference webhook)': { es: '(webhook de preferencia)', pt: '(webhook de preferência)' },
  'Event type': { es: 'Tipo de evento', pt: 'Tipo de evento' },
  'Events, newest first': { es: 'Eventos, los más recientes primero', pt: 'Eventos, os mais recentes primeiro' },
  Object: { es: 'Objeto', pt: 'Objeto' },
  'No events.': { es: 'No hay eventos.', pt: 'Não há eventos.' },
  Payload: { es: 'Contenido', pt: 'Conteúdo' },
  'The body as sent, byte for byte (shown indented).': {
    es: 'El cuerpo tal como se envió, byte a byte (mostrado con sangría).',
    pt: 'O corpo como foi enviado, byte a byte (mostrado com recuo).',
  },
  Deliveries: { es: 'Entregas', pt: 'Entregas' },
  Redeliver: { es: 'Reenviar', pt: 'Reenviar' },
  'One more attempt now to each endpoint, with the same': {
    es: 'Un intento más ahora a cada endpoint, con el mismo',
    pt: 'Mais uma tentativa agora para cada endpoint, com o mesmo',
  },
  '; disabled and deleted endpoints are skipped.': {
    es: '; se omiten los endpoints desactivados y eliminados.',
    pt: '; endpoints desativados e excluídos são ignorados.',
  },
  'Key revoked: the API refuses it from now on.': {
    es: 'Clave revocada: la API la rechaza desde ahora.',
    pt: 'Chave revogada: a API a recusa a partir de agora.',
  },
  'Name must be at most 100 characters.': {
    es: 'El nombre debe tener como máximo 100 caracteres.',
    pt: 'O nome deve ter no máximo 100 caracteres.',
  },
  'Endpoint deleted: its pending deliveries are cancelled.': {
    es: 'Endpoint eliminado: sus entregas pendientes se cancelan.',
    pt: 'Endpoint excluído: suas entregas pendentes são canceladas.',
  },
  'Edit endpoint': { es: 'Editar endpoint', pt: 'Editar endpoint' },
  'New webhook endpoint': { es: 'Nuevo endpoint de webhook', pt: 'Novo endpoint de webhook' },
  'Endpoint created': { es: 'Endpoint creado', pt: 'Endpoint criado' },
  'Deliveries to {url} are signed with this secret (Standard Webhooks). Use it in your receiver to verify them.': {
    es: 'Las entregas a {url} se firman con este secreto (Standard Webhooks). Úsalo en tu receptor para verificarlas.',
    pt: 'As entregas para {url} são assinadas com este segredo (Standard Webhooks). Use-o no seu receptor para verificá-las.',
  },
  'Done: go to the endpoint': { es: 'Listo: ir al endpoint', pt: 'Pronto: ir para o endpoint' },
  'Endpoint saved.': { es: 'Endpoint guardado.', pt: 'Endpoint salvo.' },
  'Test event queued: it is delivered in a few seconds and listed below.': {
    es: 'Evento de prueba en cola: se entrega en unos segundos y aparece abajo.',
    pt: 'Evento de teste na fila: é entregue em alguns segundos e aparece abaixo.',
  },
  'Endpoint enabled: it receives the events it subscribes to from now on.': {
    es: 'Endpoint activado: recibe los eventos a los que está suscrito desde ahora.',
    pt: 'Endpoint ativado: recebe os eventos em que está inscrito a partir de agora.',
  },
  'Endpoint disabled: no event is sent to it until it is enabled again.': {
    es: 'Endpoint desactivado: no se le envía ningún evento hasta que se active de nuevo.',
    pt: 'Endpoint desativado: nenhum evento é enviado a ele até ser ativado de novo.',
  },
  'Rotate the signing secret?': { es: '¿Rotar el secreto de firma?', pt: 'Trocar o segredo de assinatura?' },
  'A new secret signs deliveries to {url} from now on; the current one keeps signing alongside it for a while, so you can update your receiver without losing a delivery.':
    {
      es: 'Un secreto nuevo firma las entregas a {url} desde ahora; el actual sigue firmando junto a él por un tiempo, para que actualices tu receptor sin perder ninguna entrega.',
      pt: 'Um novo segredo assina as entregas para {url} a partir de agora; o atual continua assinando junto por um tempo, para você atualizar seu receptor sem perder nenhuma entrega.',
    },
  'New signing secret': { es: 'Nuevo secreto de firma', pt: 'Novo segredo de assinatura' },
  'Deliveries to {url} are signed with this secret from now on.': {
    es: 'Las entregas a {url} se firman con este secreto desde ahora.',
    pt: 'As entregas para {url} são assinadas com este segredo a partir de agora.',
  },
  'Done: back to the endpoint': { es: 'Listo: volver al endpoint', pt: 'Pronto: voltar ao endpoint' },
  'Delete endpoint': { es: 'Eliminar endpoint', pt: 'Excluir endpoint' },
  'Delete this endpoint?': { es: '¿Eliminar este endpoint?', pt: 'Excluir este endpoint?' },
  'No event is sent to {url} any more and its pending deliveries are cancelled. This cannot be undone.': {
    es: 'Ya no se envía ningún evento a {url} y sus entregas pendientes se cancelan. No se puede deshacer.',
    pt: 'Nenhum evento é mais enviado para {url} e suas entregas pendentes são canceladas. Não pode ser desfeito.',
  },
  "The secret that signs deliveries to your checkout preferences' status_changes_webhook URLs ({mode} mode). Make sure nobody is looking at your screen.":
    {
      es: 'El secreto que firma las entregas a las URL status_changes_webhook de tus preferencias de checkout (modo {mode}). Asegúrate de que nadie esté mirando tu pantalla.',
      pt: 'O segredo que assina as entregas para as URLs status_changes_webhook das suas preferências de checkout (modo {mode}). Garanta que ninguém esteja olhando sua tela.',
    },
  'A new secret signs deliveries to preference webhooks from now on; the current one keeps signing alongside it for a while.':
    {
      es: 'Un secreto nuevo firma las entregas a los webhooks de preferencias desde ahora; el actual sigue firmando junto a él por un tiempo.',
      pt: 'Um novo segredo assina as entregas aos webhooks de preferências a partir de agora; o atual continua assinando junto por um tempo.',
    },
  'Signing secret': { es: 'Secreto de firma', pt: 'Segredo de assinatura' },
  'Signing secret for preference webhooks': {
    es: 'Secreto de firma de los webhooks de preferencias',
    pt: 'Segredo de assinatura dos webhooks de preferências',
  },
  'Deliveries to status_changes_webhook URLs ({mode} mode) are signed with this secret.': {
    es: 'Las entregas a las URL status_changes_webhook (modo {mode}) se firman con este secreto.',
    pt: 'As entregas para URLs status_changes_webhook (modo {mode}) são assinadas com este segredo.',
  },
  'Done: back to webhook endpoints': {
    es: 'Listo: volver a los endpoints de webhook',
    pt: 'Pronto: voltar aos endpoints de webhook',
  },
  'New signing secret for preference webhooks': {
    es: 'Nuevo secreto de firma de los webhooks de preferencias',
    pt: 'Novo segredo de assinatura dos webhooks de preferências',
  },
  'Deliveries to status_changes_webhook URLs ({mode} mode) are signed with this secret from now on.': {
    es: 'Las entregas a las URL status_changes_webhook (modo {mode}) se firman con este secreto desde ahora.',
    pt: 'As entregas para URLs status_changes_webhook (modo {mode}) são assinadas com este segredo a partir de agora.',
  },
  'Event {type}': { es: 'Evento {type}', pt: 'Evento {type}' },
  'No response': { es: 'Sin respuesta', pt: 'Sem resposta' },
} satisfies Words;
