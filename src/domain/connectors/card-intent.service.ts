import type { PaymentOrderCore } from '../payment-orders/payment-order.core.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { IntentView } from './card-connector.ts';
import type { CardSubscriptionService } from './card-subscription.service.ts';
import { connectorFailure } from './connect.service.ts';
import type { ConnectorAccess } from './connector-access.ts';

/**
 * The processor's side of a card order served by a merchant's connection: one intent per order,
 * whatever the retries (its idempotency key is fixed by the order, so a process that died
 * between creating it and recording it gets the same intent back), recorded on the order as its
 * provider reference, which is what lets a verified event close the order.
 */
export class CardIntentService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly connectors: ConnectorAccess,
    private readonly orders: PaymentOrderCore,
    private readonly subscriptions: CardSubscriptionService | null = null,
  ) {}

  /** The order's intent, created on first call; the order must be an open card order of a connected merchant. */
  async intentFor(order: PaymentOrder): Promise<IntentView> {
    if (order.paymentMethodType !== 'CARD' || order.status !== 'OPENED') {
      throw new AppError('CONFLICT', [
        `payment order ${order.id} is not an open card order (${order.paymentMethodType}, ${order.status})`,
      ]);
    }
    if (order.periodAttempt !== null) {
      throw new AppError('CONFLICT', [
        `payment order ${order.id} is a subscription's renewal: it is charged with the saved card`,
      ]);
    }
    const access = await this.connectors.cardAccess(order.merchantId, order.mode);
    if (!access) {
      throw new AppError('CONFLICT', [`the merchant has no card processor connected in ${order.mode} mode`]);
    }
    let intent: IntentView;
    try {
      // A subscription's first payment keeps the card, on a customer of the subscriber, for its renewals.
      const saveCardFor = this.subscriptions ? await this.subscriptions.customerFor(access, order) : null;
      intent = await access.connector.createIntent(access.secretKey, {
        orderId: order.id,
        preferenceId: order.checkoutPreferenceId,
        amount: { amountMinor: order.chargedAmountMinor, currency: order.chargedCurrency },
        description: order.title,
        saveCardFor,
      });
    } catch (error) {
      throw connectorFailure(error, `${access.connection.provider} payment`);
    }
    if (order.providerRef !== intent.id) {
      const now = this.orders.now(order);
      await this.uow.transaction(async (repos) => {
        if (!(await repos.orders.update(order.id, 'OPENED', { providerRef: intent.id }, now))) {
          throw new AppError('CONFLICT', [`payment order ${order.id} changed meanwhile`]);
        }
      });
    }
    return intent;
  }
}
