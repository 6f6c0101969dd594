import type { FastifyInstance } from 'fastify';
import type { RefusalReason } from '../domain/dashboard/access-refusals.service.ts';
import type { Services } from '../services.ts';
import { cardRenewalPages } from './card-renewals/card-renewals.plugin.ts';
import { checkoutPages } from './checkout/checkout.plugin.ts';
import { dashboardPages } from './dashboard/dashboard.plugin.ts';
import { planLinkPages } from './links/links.plugin.ts';
import { mailboxPages } from './mailbox/mailbox.plugin.ts';
import { subscriptionPages } from './subscriptions/subscriptions.plugin.ts';

export type PageOptions = {
  /** Whether mails go out over SMTP (the test-mode mailbox page says so). */
  smtpConfigured: boolean;
  /** Counts a refused dashboard attempt in the server's metrics. */
  countRefusal(reason: RefusalReason): void;
};

/**
 * Every server-rendered page, one plugin per area: the hosted checkout (`/checkout`), the test
 * mailbox (`/mailbox`), the payer's subscription pages (`/subscriptions`), plan links (`/l`)
 * and the merchant dashboard (`/dashboard`). Each area has its own folder; what they share is
 * in `kit/`.
 */
export async function registerPages(app: FastifyInstance, services: Services, options: PageOptions): Promise<void> {
  await app.register(checkoutPages, services);
  await app.register(mailboxPages, { ...services, smtpConfigured: options.smtpConfigured });
  await app.register(subscriptionPages, services);
  await app.register(cardRenewalPages, services);
  await app.register(planLinkPages, {
    paymentLinks: services.paymentLinks,
    preferences: services.preferences,
    publicUrl: services.publicUrl,
    signer: services.signer,
  });
  await app.register(dashboardPages, { ...services, countRefusal: options.countRefusal });
}
