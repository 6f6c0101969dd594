import type { PaymentOrderCore } from '../payment-orders/payment-order.core.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { toWireTime } from '../shared/clock.ts';
import { fromMinorUnits } from '../shared/money.ts';
import type { ConnectorEvent } from './card-connector.ts';
import type { Connection } from './connection.ts';

/** What a dispute event did: `disputed` (recorded on its order, the merchant's event written), `unknown_intent`, or `recorded` (a dispute recorded before). */
export type DisputeEventOutcome = 'disputed' | 'unknown_intent' | 'recorded';

/**
 * Disputes (chargebacks) the processor reports on card orders (charge.dispute.created): recorded
 * once per dispute on the order whose payment it names (same merchant and mode as the
 * connection), and sent to the merchant as PAYMENT_ORDER.DISPUTED in the same transaction. The
 * order's status does not change: the processor holds the money while the dispute lasts and
 * the merchant answers it in the processor's dashboard.
 */
export class CardDisputeService {
  constructor(
    private readonly core: PaymentOrderCore,
    /** Decimals of a currency in Cobro's table (the webhook's amounts are in major units). */
    private readonly decimalsOf: (currency: string) => number,
  ) {}

  /** Inside the transaction that stores the event. */
  async onEvent(repos: Repositories, connection: Connection, event: ConnectorEvent): Promise<DisputeEventOutcome> {
    const dispute = event.dispute;
    const order =
      dispute?.intentId && event.type === 'charge.dispute.created'
        ? await repos.orders.getByProviderRef(connection.merchantId, connection.mode, dispute.intentId)
        : undefined;
    if (!dispute || !order || order.paymentMethodType !== 'CARD') {
      return dispute ? 'unknown_intent' : 'recorded';
    }
    const now = this.core.now(order);
    const fresh = await repos.cardDisputes.insert({
      provider: connection.provider,
      disputeId: dispute.id,
      orderId: order.id,
      merchantId: order.merchantId,
      mode: order.mode,
      reason: dispute.reason,
      status: dispute.status,
      amountMinor: dispute.amount?.amountMinor ?? null,
      currency: dispute.amount?.currency ?? null,
      evidenceDueBy: dispute.evidenceDueBy,
      createdAt: now,
    });
    if (!fresh) {
      return 'recorded';
    }
    // The order's status stays; its sequence moves on, so the merchant never drops the event as stale.
    const touched = await repos.orders.transition(order.id, order.status, order.status, {}, now);
    await this.core.effects.disputed(
      repos,
      touched ?? order,
      {
        id: dispute.id,
        provider: connection.provider,
        reason: dispute.reason,
        status: dispute.status,
        amount: dispute.amount
          ? fromMinorUnits(dispute.amount.amountMinor, this.decimalsOf(dispute.amount.currency))
          : null,
        currency: dispute.amount?.currency ?? null,
        evidence_due_by: dispute.evidenceDueBy === null ? null : toWireTime(dispute.evidenceDueBy),
      },
      now,
    );
    return 'disputed';
  }
}
