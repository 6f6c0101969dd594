import type { Logger } from 'pino';
import type { MailTransport } from '../domain/notifications/email.ts';
import type { Clock } from '../domain/shared/clock.ts';
import type { UnitOfWork } from '../domain/shared/unit-of-work.ts';

const MAX_ATTEMPTS = 8;
/** Longer than any SMTP exchange takes: a mail is sent again only when its worker is gone. */
const LEASE_MS = 5 * 60_000;

/**
 * Sends queued mails. Without SMTP configured they are marked KEPT and stay readable on the
 * merchant's test-mode mailbox page; with SMTP a failure is retried on the next runs. Each mail
 * is leased to one worker while it is sent, so any number of workers send it once (a worker that
 * dies after sending but before recording it is the one case a mail goes out twice).
 */
export class EmailSender {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly transport: MailTransport | null,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Sends what is queued, a batch at a time; the number sent. */
  async sendQueued(): Promise<number> {
    const { uow, transport, clock, logger } = this;
    let sent = 0;
    const claimed = await uow.transaction((repos) => repos.emails.claimPending(clock.now().getTime(), 50, LEASE_MS));
    for (const mail of claimed) {
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
}
