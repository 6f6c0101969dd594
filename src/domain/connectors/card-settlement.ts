import type { Mode } from '../merchants/merchant.ts';
import type { PaymentOrderCore } from '../payment-orders/payment-order.core.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { IntentView } from './card-connector.ts';
import type { ConnectorProvider } from './connection.ts';
import { savedCardToken } from './saved-card.ts';

/**
 * What settling an intent did:
 * - `closed`: the intent paid its order in full; the order is CLOSED.
 * - `not_settled`: the processor does not say the money is taken; nothing changed.
 * - `unknown_intent`: it names no card order of this merchant and mode paid by that intent (an
 *   intent Cobro did not create, another merchant's or mode's order); nothing changed.
 * - `order_not_open`: the order was already closed, expired or rejected.
 * - `amount_mismatch`: the intent's amount or currency is not the order's; the order stays open
 *   and `problem` says why.
 */
export type SettlementOutcome = 'closed' | 'not_settled' | 'unknown_intent' | 'order_not_open' | 'amount_mismatch';

export type Settlement = {
  outcome: SettlementOutcome;
  /** The order the intent names, as it is after settling (undefined when there is none). */
  order: PaymentOrder | undefined;
  problem: string | null;
};

/**
 * The one rule that closes a card order on what its processor says about an intent, whoever
 * learnt it (a verified event, the payer's return page, the settle job): the intent is the one
 * Cobro created for the order, the order is still OPENED, and the intent received exactly the
 * order's amount in its currency. Runs inside the caller's transaction.
 */
export class CardSettlement {
  constructor(private readonly orders: PaymentOrderCore) {}

  async settle(
    repos: Repositories,
    scope: { merchantId: string; mode: Mode; provider: ConnectorProvider },
    intent: IntentView,
  ): Promise<Settlement> {
    const order = intent.orderId ? await repos.orders.getById(intent.orderId) : undefined;
    if (!order || !createdFor(order, scope, intent)) {
      return { outcome: 'unknown_intent', order: undefined, problem: null };
    }
    if (intent.outcome !== 'SETTLE') {
      return { outcome: 'not_settled', order, problem: null };
    }
    if (order.status !== 'OPENED') {
      return { outcome: 'order_not_open', order, problem: null };
    }
    const received = intent.received;
    if (
      !received ||
      received.currency !== order.chargedCurrency ||
      received.amountMinor !== order.chargedAmountMinor ||
      intent.amount?.amountMinor !== order.chargedAmountMinor
    ) {
      const got = received
        ? `${received.amountMinor} ${received.currency}`
        : 'an amount in a currency Cobro does not know';
      return {
        outcome: 'amount_mismatch',
        order,
        problem: `intent ${intent.id} received ${got} (minor units), but order ${order.id} charges ${order.chargedAmountMinor} ${order.chargedCurrency}; the order was not closed`,
      };
    }
    const now = this.orders.now(order);
    // A subscription's first payment: the card it was paid with becomes the subscription's saved card.
    const cardToken = order.recurrentPaymentId ? savedCardToken(scope.provider, intent) : null;
    const closed = await this.orders.close(repos, order, { receivedAmountMinor: received.amountMinor }, now, cardToken);
    return { outcome: 'closed', order: closed, problem: null };
  }
}

/**
 * The intent is the one Cobro created for this order: same merchant and mode, a card order, and
 * the intent's id recorded on the order when it was created.
 */
function createdFor(order: PaymentOrder, scope: { merchantId: string; mode: Mode }, intent: IntentView): boolean {
  return (
    order.merchantId === scope.merchantId &&
    order.mode === scope.mode &&
    order.paymentMethodType === 'CARD' &&
    order.providerRef === intent.id
  );
}
