import type { Kysely } from 'kysely';
import type { Repositories } from '../../domain/repositories/repositories.ts';
import type { Database } from '../schema.ts';
import { KyselyAuditRepository } from './audit.repository.ts';
import { KyselyCardDisputeRepository, KyselyCardRefundRepository } from './card-refund.repository.ts';
import { KyselyCheckoutPreferenceRepository } from './checkout-preference.repository.ts';
import { KyselyCounterRepository, KyselyTestClockRepository } from './counters.repository.ts';
import { KyselyCredentialThrottleRepository } from './credential-throttle.repository.ts';
import { KyselyDashboardSessionRepository } from './dashboard-session.repository.ts';
import { KyselyDashboardStatsRepository } from './dashboard-stats.repository.ts';
import { KyselyDashboardUserRepository } from './dashboard-user.repository.ts';
import { KyselyEmailRepository } from './email.repository.ts';
import { KyselyEventRepository } from './event.repository.ts';
import { KyselyEventQueryRepository } from './event-query.repository.ts';
import { KyselyIdempotencyRepository } from './idempotency.repository.ts';
import { KyselyInvitationRepository } from './invitation.repository.ts';
import { KyselyMembershipRepository } from './membership.repository.ts';
import { KyselyApiKeyRepository, KyselyMerchantRepository } from './merchant.repository.ts';
import { KyselyMerchantLogoRepository } from './merchant-logo.repository.ts';
import { KyselyObjectOwnerRepository } from './object-owner.repository.ts';
import { KyselyPasswordResetRepository } from './password-reset.repository.ts';
import { KyselyPaymentLinkRepository } from './payment-link.repository.ts';
import { KyselyPaymentMethodRepository } from './payment-method.repository.ts';
import { KyselyPaymentOrderRepository } from './payment-order.repository.ts';
import { KyselyPixChargeRepository } from './pix-charge.repository.ts';
import { KyselyProcessorConnectionRepository } from './processor-connection.repository.ts';
import { KyselyRecurrentPaymentRepository } from './recurrent-payment.repository.ts';
import { KyselyWebhookDeliveryRepository } from './webhook-delivery.repository.ts';
import { KyselyWebhookEndpointRepository } from './webhook-endpoint.repository.ts';
import { KyselyWebhookSecretRepository } from './webhook-secret.repository.ts';

export function makeRepositories(db: Kysely<Database>): Repositories {
  return {
    merchants: new KyselyMerchantRepository(db),
    apiKeys: new KyselyApiKeyRepository(db),
    paymentMethods: new KyselyPaymentMethodRepository(db),
    paymentLinks: new KyselyPaymentLinkRepository(db),
    preferences: new KyselyCheckoutPreferenceRepository(db),
    idempotency: new KyselyIdempotencyRepository(db),
    orders: new KyselyPaymentOrderRepository(db),
    events: new KyselyEventRepository(db),
    counters: new KyselyCounterRepository(db),
    testClocks: new KyselyTestClockRepository(db),
    webhookEndpoints: new KyselyWebhookEndpointRepository(db),
    webhookSecrets: new KyselyWebhookSecretRepository(db),
    webhookDeliveries: new KyselyWebhookDeliveryRepository(db),
    eventQueries: new KyselyEventQueryRepository(db),
    recurrentPayments: new KyselyRecurrentPaymentRepository(db),
    emails: new KyselyEmailRepository(db),
    dashboardUsers: new KyselyDashboardUserRepository(db),
    memberships: new KyselyMembershipRepository(db),
    invitations: new KyselyInvitationRepository(db),
    dashboardSessions: new KyselyDashboardSessionRepository(db),
    passwordResets: new KyselyPasswordResetRepository(db),
    credentialThrottle: new KyselyCredentialThrottleRepository(db),
    audit: new KyselyAuditRepository(db),
    dashboardStats: new KyselyDashboardStatsRepository(db),
    merchantLogos: new KyselyMerchantLogoRepository(db),
    objectOwners: new KyselyObjectOwnerRepository(db),
    connections: new KyselyProcessorConnectionRepository(db),
    pixCharges: new KyselyPixChargeRepository(db),
    cardRefunds: new KyselyCardRefundRepository(db),
    cardDisputes: new KyselyCardDisputeRepository(db),
  };
}
