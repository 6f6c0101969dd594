import type { Logger } from 'pino';
import type { MailTransport } from '../domain/notifications/email.ts';
import type { Clock } from '../domain/shared/clock.ts';
import type { UnitOfWork } from '../domain/shared/unit-of-work.ts';

const MAX_ATTEMPTS = 8;

/**
 * Sends queued mails. Without SMTP configured they are marked KEPT and stay readable on the
 * merchant's test-mode mailbox page; with SMTP a failure is retried on the next runs.
 */
export async function sendQueuedEmails(
  uow: UnitOfWork,
  transport: MailTransport | null,
  clock: Clock,
  logger: Logger,
): Promise<number> {
  let sent = 0;
  for (const mail of await uow.read.emails.listPending(50)) {
    const now = clock.now().getTime();
    if (!transport) {
      await uow.transaction((repos) => repos.emails.mark(mail.id, 'KEPT', mail.attempts, null, now));
      continue;
    }
    try {
      await transport.send({ to: mail.to, subject: mail.subject, text: mail.text });
      await uow.transaction((repos) => repos.emails.mark(mail.id, 'SENT', mail.attempts + 1, null, now));
      sent++;
    } catch (error) {
      const attempts = mail.attempts + 1;
      logger.warn({ err: error, email: mail.id }, 'sending an e-mail failed');
      await uow.transaction((repos) =>
        repos.emails.mark(
          mail.id,
          attempts >= MAX_ATTEMPTS ? 'FAILED' : 'PENDING',
          attempts,
          (error as Error).message,
          now,
        ),
      );
    }
  }
  return sent;
}
