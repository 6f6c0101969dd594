import type { EmailStatus } from '../../domain/notifications/email.ts';
import type { Locale } from '../kit/locale.ts';

/** The test mailbox page's own texts; the layout's (banner, footer, switcher) are the payer pages'. */
export type MailboxMessages = {
  notFoundTitle: string;
  notFoundText: string;
  title: string;
  /** What the page holds, and where else the mails go. */
  intro: (smtpConfigured: boolean) => string;
  empty: string;
  /** The line under a mail's subject: to whom, when, what became of it. */
  sentTo: (address: string, when: string, status: string) => string;
  statuses: Record<EmailStatus, string>;
};

const en: MailboxMessages = {
  notFoundTitle: 'Not found',
  notFoundText: 'This mailbox link is not valid.',
  title: 'Test mailbox',
  intro: (smtp) =>
    `Mails written to your payers in test mode, newest first. They are ${
      smtp ? 'also sent through your SMTP server' : 'kept here because no SMTP server is configured'
    }.`,
  empty: 'No mail yet.',
  sentTo: (address, when, status) => `To ${address} · ${when} · ${status}`,
  statuses: { PENDING: 'Waiting to be sent', SENT: 'Sent', KEPT: 'Kept here', FAILED: 'Not sent' },
};

const es: MailboxMessages = {
  notFoundTitle: 'No encontrado',
  notFoundText: 'Este enlace al buzón no es válido.',
  title: 'Buzón de prueba',
  intro: (smtp) =>
    `Correos escritos a tus pagadores en modo de prueba, del más reciente al más antiguo. ${
      smtp ? 'También se envían por tu servidor SMTP.' : 'Se guardan aquí porque no hay un servidor SMTP configurado.'
    }`,
  empty: 'Todavía no hay correos.',
  sentTo: (address, when, status) => `Para ${address} · ${when} · ${status}`,
  statuses: { PENDING: 'Por enviar', SENT: 'Enviado', KEPT: 'Guardado aquí', FAILED: 'No enviado' },
};

const pt: MailboxMessages = {
  notFoundTitle: 'Não encontrado',
  notFoundText: 'Este link da caixa de entrada não é válido.',
  title: 'Caixa de entrada de teste',
  intro: (smtp) =>
    `E-mails escritos aos seus pagadores no modo de teste, do mais recente ao mais antigo. ${
      smtp
        ? 'Também são enviados pelo seu servidor SMTP.'
        : 'Ficam guardados aqui porque nenhum servidor SMTP está configurado.'
    }`,
  empty: 'Nenhum e-mail ainda.',
  sentTo: (address, when, status) => `Para ${address} · ${when} · ${status}`,
  statuses: { PENDING: 'Aguardando envio', SENT: 'Enviado', KEPT: 'Guardado aqui', FAILED: 'Não enviado' },
};

const ALL: Readonly<Record<Locale, MailboxMessages>> = { en, es, pt };

export function mailboxMessagesFor(locale: Locale): MailboxMessages {
  return ALL[locale];
}
