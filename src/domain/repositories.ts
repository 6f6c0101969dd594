import type { CheckoutPreferenceRepository } from './checkout-preferences/checkout-preference.ts';
import type { DashboardRepository } from './dashboard/dashboard-user.ts';
import type { DashboardStatsRepository } from './dashboard/stats.ts';
import type { EventRepository } from './events/event.ts';
import type { IdempotencyRepository } from './idempotency/idempotency.ts';
import type {
  ApiKeyRepository,
  CounterRepository,
  MerchantRepository,
  TestClockRepository,
} from './merchants/merchant.repository.ts';
import type { MerchantLogoRepository } from './merchants/merchant-profile.ts';
import type { EmailRepository } from './notifications/email.ts';
import type { PaymentMethodRepository } from './payment-methods/payment-method.ts';
import type { PaymentOrderRepository } from './payment-orders/payment-order.ts';
import type { PaymentLinkRepository } from './subscriptions/payment-link.ts';
import type { RecurrentPaymentRepository } from './subscriptions/recurrent-payment.ts';
import type { EventQueryRepository, WebhookRepository } from './webhooks/webhook.ts';

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
