import type { Words } from './words.ts';

/** A name people and tests navigate by: the same English words in every language. */
const same = (english: string) => ({ es: english, pt: english });

/** The frame around every page, sign-in, invitations, password reset and the error pages. */
export const frameWords = {
  'Cobro dashboard': { es: 'Panel de Cobro', pt: 'Painel do Cobro' },
  'Skip to content': { es: 'Ir al contenido', pt: 'Pular para o conteúdo' },
  'Test mode: these are test data. No real money moves.': {
    es: 'Modo de prueba: son datos de prueba. No se mueve dinero real.',
    pt: 'Modo de teste: são dados de teste. Nenhum dinheiro real é movimentado.',
  },
  'View test data': { es: 'Ver datos de prueba', pt: 'Ver dados de teste' },
  'View live data': { es: 'Ver datos reales', pt: 'Ver dados reais' },
  'Signed in as': { es: 'Sesión iniciada como', pt: 'Conectado como' },
  'Sign out': { es: 'Cerrar sesión', pt: 'Sair' },
  'Sign out everywhere': { es: 'Cerrar todas las sesiones', pt: 'Sair de todas as sessões' },
  'Sign in to your dashboard': { es: 'Inicia sesión en tu panel', pt: 'Entre no seu painel' },
  'The e-mail or the password is not right.': {
    es: 'El correo o la contraseña no son correctos.',
    pt: 'O e-mail ou a senha não estão certos.',
  },
  'Too many failed attempts. Wait a few minutes and try again.': {
    es: 'Demasiados intentos fallidos. Espera unos minutos y vuelve a intentarlo.',
    pt: 'Tentativas demais. Espere alguns minutos e tente de novo.',
  },
  'Forgot your password?': { es: '¿Olvidaste tu contraseña?', pt: 'Esqueceu a senha?' },
  'Enter the 6-digit code from your authenticator app, or one of your recovery codes.': {
    es: 'Escribe el código de 6 dígitos de tu app de autenticación, o uno de tus códigos de recuperación.',
    pt: 'Digite o código de 6 dígitos do seu app autenticador, ou um dos seus códigos de recuperação.',
  },
  Verify: same('Verify'),
  'Join the dashboard': { es: 'Únete al panel', pt: 'Entre no painel' },
  'You already have an account with this e-mail: enter its password to accept.': {
    es: 'Ya tienes una cuenta con este correo: escribe su contraseña para aceptar.',
    pt: 'Você já tem uma conta com este e-mail: digite a senha dela para aceitar.',
  },
  'This invitation is unknown, used or expired. Ask the owner for a new one.': {
    es: 'Esta invitación no existe, ya se usó o venció. Pide una nueva.',
    pt: 'Este convite não existe, já foi usado ou expirou. Peça um novo.',
  },
  'At least 12 characters; not a common password.': {
    es: 'Al menos 12 caracteres; no una contraseña común.',
    pt: 'Pelo menos 12 caracteres; não uma senha comum.',
  },
  'Reset your password': { es: 'Restablece tu contraseña', pt: 'Redefina sua senha' },
  'If an account uses this e-mail, a link to reset its password is on its way.': {
    es: 'Si alguna cuenta usa este correo, le enviamos un enlace para restablecer la contraseña.',
    pt: 'Se alguma conta usa este e-mail, um link para redefinir a senha está a caminho.',
  },
  'This link is unknown, used or expired. Ask for a new one.': {
    es: 'Este enlace no existe, ya se usó o venció. Pide uno nuevo.',
    pt: 'Este link não existe, já foi usado ou expirou. Peça um novo.',
  },
  'Your password is changed. Sign in with it.': {
    es: 'Tu contraseña cambió. Inicia sesión con ella.',
    pt: 'Sua senha foi alterada. Entre com ela.',
  },
  'Send the link': same('Send the link'),
  'Choose a new password': same('Choose a new password'),
  'Save password': same('Save password'),
  'Your account does not belong to any merchant any more.': {
    es: 'Tu cuenta ya no pertenece a ningún comercio.',
    pt: 'Sua conta não pertence mais a nenhum comerciante.',
  },
  'Your role does not allow this.': { es: 'Tu rol no permite esto.', pt: 'Seu papel não permite isto.' },
  'There is nothing here.': { es: 'No hay nada aquí.', pt: 'Não há nada aqui.' },
  'This request could not be understood.': {
    es: 'No se pudo entender esta solicitud.',
    pt: 'Não foi possível entender este pedido.',
  },
  'Something went wrong on our side. Nothing was changed; try again.': {
    es: 'Algo falló de nuestro lado. No se cambió nada; inténtalo de nuevo.',
    pt: 'Algo deu errado do nosso lado. Nada foi alterado; tente de novo.',
  },
  'This form has expired. Go back, reload the page and send it again.': {
    es: 'Este formulario venció. Vuelve, recarga la página y envíalo otra vez.',
    pt: 'Este formulário expirou. Volte, recarregue a página e envie de novo.',
  },
  Home: same('Home'),
  'You are invited to {merchant} as {role}.': {
    es: 'Te invitaron a {merchant} como {role}.',
    pt: 'Você foi convidado para {merchant} como {role}.',
  },
} satisfies Words;
