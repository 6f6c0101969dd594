import { AsyncLocalStorage } from 'node:async_hooks';
import type { Locale } from '../kit/locale.ts';
import { AREAS } from './words/index.ts';

/** A page's text in the reader's language: the English text, with `{name}` placeholders filled in. */
export type Translate = (english: string, values?: Record<string, string | number>) => string;

/**
 * The dashboard's words in English, Spanish and Portuguese (from Accept-Language, as the
 * checkout). Like the checkout's field labels, the names people and tests navigate by — the
 * sign-in fields and button, the navigation, "Refund" — are the same English words in every
 * language; the rest of each page is translated.
 */
export type DashboardMessages = {
  /** Page text: `m.t('Gross volume')`; the dictionaries are in `words/`. */
  t: Translate;
  htmlLang: string;
  numberLocale: string;
  dashboard: string;
  skipToContent: string;
  testModeBanner: string;
  viewTestData: string;
  viewLiveData: string;
  signedInAs: string;
  signOut: string;
  signOutEverywhere: string;
  signInTitle: string;
  signInFailed: string;
  throttled: string;
  forgotPassword: string;
  secondFactorTitle: string;
  secondFactorHelp: string;
  codeLabel: string;
  verify: string;
  invitationTitle: string;
  invitationIntro: (merchant: string, role: string) => string;
  invitationExisting: string;
  invitationGone: string;
  passwordRules: string;
  resetTitle: string;
  resetSent: string;
  resetGone: string;
  resetDone: string;
  sendResetLink: string;
  choosePassword: string;
  savePassword: string;
  noMerchant: string;
  forbidden: string;
  notFound: string;
  badRequest: string;
  error: string;
  csrf: string;
  home: string;
};

function fill(text: string, values: Record<string, string | number> | undefined): string {
  if (!values) {
    return text;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

function translator(lang: 'es' | 'pt'): Translate {
  const table = new Map<string, string>();
  for (const words of Object.values(AREAS)) {
    for (const [english, translated] of Object.entries(words)) {
      table.set(english, translated[lang]);
    }
  }
  return (english, values) => fill(table.get(english) ?? english, values);
}

const en: DashboardMessages = {
  t: fill,
  htmlLang: 'en',
  numberLocale: 'en-US',
  dashboard: 'Cobro dashboard',
  skipToContent: 'Skip to content',
  testModeBanner: 'Test mode: these are test data. No real money moves.',
  viewTestData: 'View test data',
  viewLiveData: 'View live data',
  signedInAs: 'Signed in as',
  signOut: 'Sign out',
  signOutEverywhere: 'Sign out everywhere',
  signInTitle: 'Sign in to your dashboard',
  signInFailed: 'The e-mail or the password is not right.',
  throttled: 'Too many failed attempts. Wait a few minutes and try again.',
  forgotPassword: 'Forgot your password?',
  secondFactorTitle: 'Two-factor authentication',
  secondFactorHelp: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  codeLabel: 'Code',
  verify: 'Verify',
  invitationTitle: 'Join the dashboard',
  invitationIntro: (merchant, role) => `You are invited to ${merchant} as ${role}.`,
  invitationExisting: 'You already have an account with this e-mail: enter its password to accept.',
  invitationGone: 'This invitation is unknown, used or expired. Ask the owner for a new one.',
  passwordRules: 'At least 12 characters; not a common password.',
  resetTitle: 'Reset your password',
  resetSent: 'If an account uses this e-mail, a link to reset its password is on its way.',
  resetGone: 'This link is unknown, used or expired. Ask for a new one.',
  resetDone: 'Your password is changed. Sign in with it.',
  sendResetLink: 'Send the link',
  choosePassword: 'Choose a new password',
  savePassword: 'Save password',
  noMerchant: 'Your account does not belong to any merchant any more.',
  forbidden: 'Your role does not allow this.',
  notFound: 'There is nothing here.',
  badRequest: 'This request could not be understood.',
  error: 'Something went wrong on our side. Nothing was changed; try again.',
  csrf: 'This form has expired. Go back, reload the page and send it again.',
  home: 'Home',
};

const es: DashboardMessages = {
  ...en,
  t: translator('es'),
  htmlLang: 'es',
  numberLocale: 'es-ES',
  dashboard: 'Panel de Cobro',
  skipToContent: 'Ir al contenido',
  testModeBanner: 'Modo de prueba: son datos de prueba. No se mueve dinero real.',
  viewTestData: 'Ver datos de prueba',
  viewLiveData: 'Ver datos reales',
  signedInAs: 'Sesión iniciada como',
  signOut: 'Cerrar sesión',
  signOutEverywhere: 'Cerrar todas las sesiones',
  signInTitle: 'Inicia sesión en tu panel',
  signInFailed: 'El correo o la contraseña no son correctos.',
  throttled: 'Demasiados intentos fallidos. Espera unos minutos y vuelve a intentarlo.',
  forgotPassword: '¿Olvidaste tu contraseña?',
  secondFactorTitle: 'Verificación en dos pasos',
  secondFactorHelp: 'Escribe el código de 6 dígitos de tu app de autenticación, o uno de tus códigos de recuperación.',
  invitationTitle: 'Únete al panel',
  invitationIntro: (merchant, role) => `Te invitaron a ${merchant} como ${role}.`,
  invitationExisting: 'Ya tienes una cuenta con este correo: escribe su contraseña para aceptar.',
  invitationGone: 'Esta invitación no existe, ya se usó o venció. Pide una nueva.',
  passwordRules: 'Al menos 12 caracteres; no una contraseña común.',
  resetTitle: 'Restablece tu contraseña',
  resetSent: 'Si alguna cuenta usa este correo, le enviamos un enlace para restablecer la contraseña.',
  resetGone: 'Este enlace no existe, ya se usó o venció. Pide uno nuevo.',
  resetDone: 'Tu contraseña cambió. Inicia sesión con ella.',
  noMerchant: 'Tu cuenta ya no pertenece a ningún comercio.',
  forbidden: 'Tu rol no permite esto.',
  notFound: 'No hay nada aquí.',
  badRequest: 'No se pudo entender esta solicitud.',
  error: 'Algo falló de nuestro lado. No se cambió nada; inténtalo de nuevo.',
  csrf: 'Este formulario venció. Vuelve, recarga la página y envíalo otra vez.',
};

const pt: DashboardMessages = {
  ...en,
  t: translator('pt'),
  htmlLang: 'pt-BR',
  numberLocale: 'pt-BR',
  dashboard: 'Painel do Cobro',
  skipToContent: 'Pular para o conteúdo',
  testModeBanner: 'Modo de teste: são dados de teste. Nenhum dinheiro real é movimentado.',
  viewTestData: 'Ver dados de teste',
  viewLiveData: 'Ver dados reais',
  signedInAs: 'Conectado como',
  signOut: 'Sair',
  signOutEverywhere: 'Sair de todas as sessões',
  signInTitle: 'Entre no seu painel',
  signInFailed: 'O e-mail ou a senha não estão certos.',
  throttled: 'Tentativas demais. Espere alguns minutos e tente de novo.',
  forgotPassword: 'Esqueceu a senha?',
  secondFactorTitle: 'Verificação em duas etapas',
  secondFactorHelp: 'Digite o código de 6 dígitos do seu app autenticador, ou um dos seus códigos de recuperação.',
  invitationTitle: 'Entre no painel',
  invitationIntro: (merchant, role) => `Você foi convidado para ${merchant} como ${role}.`,
  invitationExisting: 'Você já tem uma conta com este e-mail: digite a senha dela para aceitar.',
  invitationGone: 'Este convite não existe, já foi usado ou expirou. Peça um novo.',
  passwordRules: 'Pelo menos 12 caracteres; não uma senha comum.',
  resetTitle: 'Redefina sua senha',
  resetSent: 'Se alguma conta usa este e-mail, um link para redefinir a senha está a caminho.',
  resetGone: 'Este link não existe, já foi usado ou expirou. Peça um novo.',
  resetDone: 'Sua senha foi alterada. Entre com ela.',
  noMerchant: 'Sua conta não pertence mais a nenhum comerciante.',
  forbidden: 'Seu papel não permite isto.',
  notFound: 'Não há nada aqui.',
  badRequest: 'Não foi possível entender este pedido.',
  error: 'Algo deu errado do nosso lado. Nada foi alterado; tente de novo.',
  csrf: 'Este formulário expirou. Volte, recarregue a página e envie de novo.',
};

const ALL: Record<Locale, DashboardMessages> = { en, es, pt };

export function dashboardMessages(locale: Locale): DashboardMessages {
  return ALL[locale];
}

const pageLocale = new AsyncLocalStorage<Locale>();

/**
 * Runs `next` (the rest of a dashboard request: its hooks, its handler and everything they
 * await) in the reader's language, so a view deep in the page can call {@link t} without every
 * function in between passing the language along.
 */
export function withPageLocale(locale: Locale, next: () => void): void {
  pageLocale.run(locale, next);
}

/** Page text in the language of the request being answered; English outside a request. */
export const t: Translate = (english, values) => ALL[pageLocale.getStore() ?? 'en'].t(english, values);

/**
 * Building an Intl formatter costs tens of microseconds, and a page formats hundreds of amounts
 * (the home page's 90-day chart alone, several per day): one formatter per language, currency
 * and number of decimals, kept for the life of the process (a bounded map).
 */
const moneyFormats = new Map<string, (decimalText: string) => string>();

function moneyFormat(locale: string, currency: string, decimals: number): (decimalText: string) => string {
  const key = `${locale} ${currency} ${decimals}`;
  const known = moneyFormats.get(key);
  if (known) {
    return known;
  }
  let format: (decimalText: string) => string;
  try {
    const f = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    format = (text) => f.format(text as unknown as number);
  } catch {
    // Not an ISO 4217 code Intl knows (USDT, USDC): the digits, then the code.
    const f = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    format = (text) => `${f.format(text as unknown as number)} ${currency}`;
  }
  if (moneyFormats.size < 1_000) {
    moneyFormats.set(key, format);
  }
  return format;
}

/** `1690n` → `$16.90` / `US$ 16,90` / `16,90 US$` in the reader's language, exactly (no float). */
export function formatMoney(amountMinor: bigint, currency: string, decimals: number, m: DashboardMessages): string {
  const negative = amountMinor < 0n;
  const abs = negative ? -amountMinor : amountMinor;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(decimals, '0');
  // Intl formats the digits and the symbol; the value goes in as a decimal string, so no float rounding.
  const text = `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
  return moneyFormat(m.numberLocale, currency, decimals)(text);
}

/** Times in UTC on the server; the page's script rewrites them into the reader's zone. */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
