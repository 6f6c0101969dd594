import type { ApiKeyRepository } from './api-key.repository.ts';
import type { CheckoutPreferenceRepository } from './checkout-preference.repository.ts';
import type { CounterRepository } from './counter.repository.ts';
import type { DashboardRepository } from './dashboard.repository.ts';
import type { DashboardStatsRepository } from './dashboard-stats.repository.ts';
import type { EmailRepository } from './email.repository.ts';
import type { EventRepository } from './event.repository.ts';
import type { EventQueryRepository } from './event-query.repository.ts';
import type { IdempotencyRepository } from './idempotency.repository.ts';
import type { MerchantRepository } from './merchant.repository.ts';
import type { MerchantLogoRepository } from './merchant-logo.repository.ts';
import type { PaymentLinkRepository } from './payment-link.repository.ts';
import type { PaymentMethodRepository } from './payment-method.repository.ts';
import type { PaymentOrderRepository } from './payment-order.repository.ts';
import type { RecurrentPaymentRepository } from './recurrent-payment.repository.ts';
import type { TestClockRepository } from './test-clock.repository.ts';
import type { WebhookRepository } from './webhook.repository.ts';

/** Every repository, bound to one transaction or to committed reads (see UnitOfWork). */
export type Repositories = {
  merchants: MerchantRepository;
  apiKeys: ApiKeyRepository;
  paymentMethods: PaymentMethodRepository;
  paymentLinks: PaymentLinkRepository;
  preferences: CheckoutPreferenceRepository;
  idempotency: IdempotencyRepository;
  orders: PaymentOrderRepository;
  events: EventRepository;
  counters: CounterRepository;
  testClocks: TestClockRepository;
  webhooks: WebhookRepository;
  eventQueries: EventQueryRepository;
  recurrentPayments: RecurrentPaymentRepository;
  emails: EmailRepository;
  dashboard: DashboardRepository;
  dashboardStats: DashboardStatsRepository;
  merchantLogos: MerchantLogoRepository;
};
