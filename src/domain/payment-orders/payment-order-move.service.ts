import type { Caller } from '../merchants/merchant.ts';
import type { CardChargeResult, CardPaymentProvider } from '../payment-methods/payment-provider.ts';
import { AppError } from '../shared/errors.ts';
import { getOwned } from '../shared/owned.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { RecurrentPayment } from '../subscriptions/recurrent-payment.ts';
import type { PaymentOrderCore } from './payment-order.core.ts';
import { assertTransition } from './payment-order.status.ts';
import type { PaymentOrder, PaymentOrderChanges } from './payment-order.ts';
import type { PaymentOrderQueryService } from './payment-order-query.service.ts';
import type { ProcessorRefunds } from './processor-refunds.port.ts';

/** An EXPIRED order whose payment, arriving late, is recorded as PAID_LATE: none yet, a part, or an earlier late part. */
const LATE_RECORDABLE = new Set<string>(['NONE', 'UNDERPAID', 'PAID_LATE']);

/**
 * Settling and moving an order once it is open: what the card processor answered, money
 * reported arrived (provider or merchant), a failed payment, expiry, refund.
 */
export class PaymentOrderMoveService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly core: PaymentOrderCore,
    private readonly orders: PaymentOrderQueryService,
    private readonly providers: { card: CardPaymentProvider },
    /** The merchants' own processors (Stripe, an API Pix PSP): an order one of them took is refunded there. */
    private readonly processors: readonly ProcessorRefunds[] = [],
  ) {}

  /** `subscriptionAsRead`: a renewal's subscription as the billing run read it (see onOrderClosed). */
  async applyCardResult(
    order: PaymentOrder,
    result: CardChargeResult,
    subscriptionAsRead?: RecurrentPayment,
  ): Promise<PaymentOrder> {
    const now = this.core.now(order);
    return this.uow.transaction(async (repos) => {
      if (result.status === 'FAILED') {
        const moved = await this.core.moveOrThrow(
          repos,
          order,
          'REJECTED',
          {
            providerRef: result.ref,
            failureCode: result.code,
            failureMessage: result.message,
            ...(result.brand && result.last4
              ? { instructions: { type: 'CARD', brand: result.brand, last4: result.last4, exp_month: 0, exp_year: 0 } }
              : {}),
          },
          now,
          'rejected',
        );
        return moved;
      }
      const changes: PaymentOrderChanges = {
        providerRef: result.ref,
        instructions: {
          type: 'CARD',
          brand: result.brand,
          last4: result.last4,
          exp_month: result.expMonth,
          exp_year: result.expYear,
        },
      };
      if (result.status === 'PENDING') {
        await repos.orders.update(order.id, 'OPENED', changes, now);
        return { ...order, ...changes, updatedAt: now };
      }
      return this.core.close(repos, order, changes, now, result.token, subscriptionAsRead);
    });
  }

  /**
   * The provider (PIX bank, chain watcher, cash network) or the merchant (bank transfer seen in
   * its own account) reports the money arrived. Less than due is recorded as UNDERPAID and the
   * order stays open; more is CLOSED with OVERPAID; after expiry it is recorded as PAID_LATE.
   */
  async confirm(order: PaymentOrder, received: bigint | null = null): Promise<PaymentOrder> {
    if (order.paymentMethodType === 'CARD') {
      throw new AppError('CONFLICT', ['card payments are confirmed by the card processor, not by confirm']);
    }
    const now = this.core.now(order);
    const amount = received ?? order.chargedAmountMinor;
    const outcome = await this.uow.transaction(async (repos): Promise<PaymentOrder | 'LATE'> => {
      const current = await getOwned(order.id, 'payment order', (id) => repos.orders.getById(id));
      if (current.status === 'EXPIRED' && LATE_RECORDABLE.has(current.anomaly)) {
        // Committed, then reported: the money arrived and must not be forgotten (a later top-up
        // of an address watched after expiry updates the amount).
        await repos.orders.update(current.id, 'EXPIRED', { anomaly: 'PAID_LATE', receivedAmountMinor: amount }, now);
        return 'LATE';
      }
      assertTransition(current.status, 'CLOSED', 'confirmed');
      if (now >= current.expiresAt) {
        await this.core.moveOrThrow(
          repos,
          current,
          'EXPIRED',
          { expiredAt: now, anomaly: 'PAID_LATE', receivedAmountMinor: amount },
          now,
          'expired',
        );
        return (await repos.orders.getById(current.id)) ?? current;
      }
      if (amount < current.chargedAmountMinor) {
        await repos.orders.update(current.id, 'OPENED', { anomaly: 'UNDERPAID', receivedAmountMinor: amount }, now);
        return { ...current, anomaly: 'UNDERPAID', receivedAmountMinor: amount, updatedAt: now };
      }
      return this.core.close(
        repos,
        current,
        { receivedAmountMinor: amount, anomaly: amount > current.chargedAmountMinor ? 'OVERPAID' : 'NONE' },
        now,
      );
    });
    if (outcome === 'LATE') {
      throw new AppError('CONFLICT', [
        'payment order cannot be closed: status is EXPIRED, expected OPENED; the payment was recorded as PAID_LATE for manual handling',
      ]);
    }
    return outcome;
  }

  /** Merchant confirmation (POST /v1/payment_orders/{id}/confirm): bank transfers seen in its own account. */
  async confirmByMerchant(caller: Caller, id: string): Promise<PaymentOrder> {
    const order = await this.orders.get(caller, id);
    if (order.paymentMethodType !== 'BANK_TRANSFER') {
      throw new AppError('CONFLICT', [
        `payment order cannot be confirmed by the merchant: method is ${order.paymentMethodType}, expected BANK_TRANSFER`,
      ]);
    }
    return this.confirm(order);
  }

  /** The provider reports a failed payment (test helper outcome REJECTED for push methods). */
  async reject(order: PaymentOrder, code: string, message: string): Promise<PaymentOrder> {
    const now = this.core.now(order);
    return this.uow.transaction((repos) =>
      this.core.moveOrThrow(repos, order, 'REJECTED', { failureCode: code, failureMessage: message }, now, 'rejected'),
    );
  }

  async expire(order: PaymentOrder): Promise<PaymentOrder> {
    const now = this.core.now(order);
    return this.uow.transaction((repos) =>
      this.core.moveOrThrow(repos, order, 'EXPIRED', { expiredAt: now }, now, 'expired'),
    );
  }

  /**
   * Full refund of a CLOSED order, through what took its money: the merchant's own processor
   * (a card paid through Stripe, a PIX through the merchant's PSP), the built-in card processor,
   * or, for push methods the merchant received itself, recorded here. A processor may report the
   * refund pending: the order is then given back still CLOSED, and becomes REFUNDED when the
   * processor reports it done (its event or a job). REFUNDED and its event, and what the
   * processor records with it, in one transaction.
   */
  async refund(caller: Caller, id: string): Promise<PaymentOrder> {
    const order = await this.orders.get(caller, id);
    assertTransition(order.status, 'REFUNDED', 'refunded');
    let through: ProcessorRefunds | null = null;
    for (const processor of this.processors) {
      const refunded = await processor.refund(order);
      if (refunded === 'PENDING') {
        return this.orders.get(caller, id);
      }
      if (refunded === 'REFUNDED') {
        through = processor;
        break;
      }
    }
    if (!through && order.paymentMethodType === 'CARD' && order.providerRef) {
      const refunded = await this.providers.card.refund(order.providerRef, order.mode);
      if (!refunded.ok) {
        throw new AppError('CONFLICT', [`payment order cannot be refunded: ${refunded.error.message}`]);
      }
    }
    const now = this.core.now(order);
    try {
      return await this.uow.transaction(async (repos) => {
        const moved = await this.core.moveOrThrow(repos, order, 'REFUNDED', { refundedAt: now }, now, 'refunded');
        await through?.refunded?.(repos, order);
        return moved;
      });
    } catch (error) {
      // The processor confirmed this refund, and the order was moved meanwhile by the same
      // refund (a concurrent request, the processor's event): that is the answer.
      const current = through && error instanceof AppError ? await this.orders.get(caller, id) : null;
      if (current?.status === 'REFUNDED') {
        return current;
      }
      throw error;
    }
  }
}
