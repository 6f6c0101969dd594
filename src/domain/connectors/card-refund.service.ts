import type { PaymentOrderCore } from '../payment-orders/payment-order.core.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { ProcessorRefunds } from '../payment-orders/processor-refunds.port.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { CardConnector, ChargeView, ConnectorEvent, RefundView } from './card-connector.ts';
import { ConnectorError } from './card-connector.ts';
import type { CardRefund } from './card-refund.ts';
import type { Connection } from './connection.ts';
import { CARD_PROVIDERS } from './connection.ts';
import type { ConnectorAccess } from './connector-access.ts';
import { NO_CHECK } from './pix-charge.ts';

export type CardRefundOptions = {
  /** How soon a pending refund is asked about again. */
  checkEveryMs: number;
  /** Refunds asked about in one run of the job. */
  batch: number;
};

export const DEFAULT_CARD_REFUND_OPTIONS: CardRefundOptions = { checkEveryMs: 30_000, batch: 50 };

/**
 * What a refund or charge event did (ConnectorEventService stores it beside the event id):
 * `refunded` (a full refund made in the processor's dashboard moved the order), `refund_check`
 * (a refund Cobro asked for may be done: it is asked about now), `already_refunded`,
 * `partial_refund` (recorded, the order stays CLOSED), `unknown_intent`, `order_not_open`, `recorded`.
 */
export type RefundEventOutcome =
  | 'refunded'
  | 'refund_check'
  | 'already_refunded'
  | 'partial_refund'
  | 'unknown_intent'
  | 'order_not_open'
  | 'recorded';

/**
 * Refunds of card orders paid through a merchant's processor connection (INTERFACE §11.1): a
 * full refund keyed by the order (the connector's idempotency key), so a retried or concurrent
 * refund never refunds twice. The refund is recorded PENDING before the order moves; the order
 * becomes REFUNDED in the transaction that records it SUCCEEDED — at once when the processor
 * answers succeeded, otherwise when its event, the card-refund-sync job or a retry finds it done.
 * A full refund the merchant made in the processor's own dashboard arrives as a charge event and
 * is recorded the same way; a partial one is recorded and the order stays CLOSED (Cobro refunds
 * only in full).
 */
export class CardRefundService implements ProcessorRefunds {
  constructor(
    private readonly uow: UnitOfWork,
    /** The system's clock: the processor lives in real time (test clocks move only orders). */
    private readonly clock: Clock,
    private readonly connections: ConnectorAccess,
    private readonly core: PaymentOrderCore,
    private readonly options: CardRefundOptions = DEFAULT_CARD_REFUND_OPTIONS,
  ) {}

  async refund(order: PaymentOrder): Promise<'REFUNDED' | 'PENDING' | null> {
    const connector = this.connectorPaying(order);
    if (!connector) {
      return null;
    }
    const recorded = await this.uow.read.cardRefunds.get(order.id);
    if (recorded?.status === 'SUCCEEDED') {
      // Done at the processor before (a process that stopped before moving the order): the order follows now.
      return 'REFUNDED';
    }
    const access = await this.connections.cardAccess(order.merchantId, order.mode);
    if (!access || access.connection.provider !== connector.provider) {
      throw new AppError('CONFLICT', [
        `payment order cannot be refunded: the merchant's ${connector.provider} connection in ${order.mode} mode was removed; refund it in ${connector.provider}'s dashboard`,
      ]);
    }
    const intentId = order.providerRef as string;
    let refund: RefundView;
    try {
      refund =
        recorded?.status === 'PENDING' && recorded.refundId
          ? await access.connector.retrieveRefund(access.secretKey, recorded.refundId)
          : await access.connector.createRefund(access.secretKey, { orderId: order.id, intentId });
    } catch (error) {
      throw refundFailure(error, connector.provider);
    }
    const at = this.clock.now().getTime();
    // Within a day Stripe answers a key with its first answer: the refund that failed since, as it was then.
    const replayedFailure = recorded?.status === 'FAILED' && recorded.refundId === refund.id;
    if (refund.outcome === 'FAILED' || replayedFailure) {
      if (recorded?.status === 'PENDING') {
        await this.failed(recorded, access.connection, refund, at);
      }
      throw new AppError('CONFLICT', [
        `payment order cannot be refunded: ${connector.provider} did not make the refund (${replayedFailure ? 'failed' : refund.status}); the order stays CLOSED`,
      ]);
    }
    if (!recorded || recorded.status === 'FAILED') {
      // PENDING until the order moves, in that move's transaction (refunded()); a process that
      // dies in between leaves a PENDING refund the job finds done and moves the order then.
      const pending: CardRefund = {
        orderId: order.id,
        connectionId: access.connection.id,
        merchantId: order.merchantId,
        mode: order.mode,
        provider: connector.provider,
        refundId: refund.id,
        status: 'PENDING',
        source: 'COBRO',
        nextCheckAt: at + this.options.checkEveryMs,
        lastError: null,
        createdAt: at,
        updatedAt: at,
      };
      await this.uow.transaction(async (repos) => {
        if (!(await repos.cardRefunds.insert(pending))) {
          await repos.cardRefunds.update(
            order.id,
            'FAILED',
            { status: 'PENDING', refundId: refund.id, nextCheckAt: pending.nextCheckAt, lastError: null },
            at,
          );
        }
      });
    }
    return refund.outcome === 'REFUNDED' ? 'REFUNDED' : 'PENDING';
  }

  async refunded(repos: Repositories, order: PaymentOrder): Promise<void> {
    const at = this.clock.now().getTime();
    await repos.cardRefunds.update(order.id, 'PENDING', { status: 'SUCCEEDED', nextCheckAt: NO_CHECK }, at);
  }

  /** The card-refund-sync job: each pending refund due is asked about; the others wait for their turn. */
  async sync(): Promise<number> {
    const now = this.clock.now().getTime();
    const due = await this.uow.read.cardRefunds.listDue(now, 'PENDING', this.options.batch);
    for (const refund of due) {
      await this.check(refund);
    }
    return due.length;
  }

  /** Asks the processor about the order's pending refund now (after an event said it may have moved). */
  async checkOrder(orderId: string): Promise<void> {
    const refund = await this.uow.read.cardRefunds.get(orderId);
    if (refund?.status === 'PENDING') {
      await this.check(refund);
    }
  }

  /**
   * A charge.* or refund.* event, inside the transaction that stores it. It never calls the
   * processor: a refund Cobro asked for is made due for a check, which the caller runs after
   * the commit (checkOrder).
   */
  async onEvent(
    repos: Repositories,
    connection: Connection,
    event: ConnectorEvent,
  ): Promise<{ outcome: RefundEventOutcome; problem: string | null; orderId: string | null }> {
    const none = (outcome: RefundEventOutcome) => ({ outcome, problem: null, orderId: null });
    const intentId = event.charge?.intentId ?? event.refund?.intentId ?? null;
    const order = intentId
      ? await repos.orders.getByProviderRef(connection.merchantId, connection.mode, intentId)
      : undefined;
    if (order?.paymentMethodType !== 'CARD') {
      return none('unknown_intent');
    }
    const recorded = await repos.cardRefunds.get(order.id);
    const at = this.clock.now().getTime();
    if (recorded?.status === 'PENDING') {
      // The processor's answer to GET decides, not the event: a pending refund already counts as
      // refunded on the charge, and events may come out of order.
      await repos.cardRefunds.update(order.id, 'PENDING', { nextCheckAt: at }, at);
      return { outcome: 'refund_check', problem: null, orderId: order.id };
    }
    if (order.status === 'REFUNDED' || recorded?.status === 'SUCCEEDED') {
      return none('already_refunded');
    }
    const charge = event.type === 'charge.refunded' ? event.charge : null;
    if (!charge) {
      return none('recorded');
    }
    if (order.status !== 'CLOSED') {
      return none('order_not_open');
    }
    if (!charge.fullyRefunded) {
      return {
        outcome: 'partial_refund',
        problem: `event ${event.id}: ${partially(charge)} of order ${order.id} was refunded in ${connection.provider}'s dashboard; Cobro records full refunds only, so the order stays CLOSED`,
        orderId: order.id,
      };
    }
    // Refunded in full in the processor's own dashboard: recorded, and the order follows.
    const fromProcessor: CardRefund = {
      orderId: order.id,
      connectionId: connection.id,
      merchantId: order.merchantId,
      mode: order.mode,
      provider: connection.provider,
      refundId: charge.refundIds[0] ?? null,
      status: 'SUCCEEDED',
      source: 'PROCESSOR',
      nextCheckAt: NO_CHECK,
      lastError: null,
      createdAt: at,
      updatedAt: at,
    };
    if (!(await repos.cardRefunds.insert(fromProcessor))) {
      await repos.cardRefunds.update(
        order.id,
        'FAILED',
        { status: 'SUCCEEDED', refundId: fromProcessor.refundId, nextCheckAt: NO_CHECK, lastError: null },
        at,
      );
    }
    const now = this.core.now(order);
    await this.core.moveOrThrow(repos, order, 'REFUNDED', { refundedAt: now }, now, 'refunded');
    return { outcome: 'refunded', problem: null, orderId: order.id };
  }

  private async check(refund: CardRefund): Promise<void> {
    const at = this.clock.now().getTime();
    const connection = await this.uow.read.connections.getConnectionById(refund.connectionId);
    const access = connection ? await this.connections.cardAccess(connection.merchantId, connection.mode) : null;
    if (!connection || !access || access.connection.id !== connection.id || !refund.refundId) {
      await this.uow.transaction((repos) =>
        repos.cardRefunds.update(
          refund.orderId,
          'PENDING',
          {
            nextCheckAt: NO_CHECK,
            lastError: 'the connection that made this refund was removed; follow it in the processor’s dashboard',
          },
          at,
        ),
      );
      return;
    }
    let view: RefundView;
    try {
      view = await access.connector.retrieveRefund(access.secretKey, refund.refundId);
    } catch (error) {
      if (!(error instanceof ConnectorError)) {
        throw error;
      }
      const problem = `refund ${refund.refundId} of order ${refund.orderId}: ${error.message}`;
      await this.uow.transaction(async (repos) => {
        await repos.cardRefunds.update(
          refund.orderId,
          'PENDING',
          { nextCheckAt: at + this.options.checkEveryMs, lastError: problem },
          at,
        );
        await repos.connections.setConnectionError(connection.id, problem, at);
      });
      return;
    }
    if (view.outcome === 'WAIT') {
      await this.uow.transaction((repos) =>
        repos.cardRefunds.update(refund.orderId, 'PENDING', { nextCheckAt: at + this.options.checkEveryMs }, at),
      );
      return;
    }
    if (view.outcome === 'FAILED') {
      await this.failed(refund, connection, view, at);
      return;
    }
    await this.uow.transaction(async (repos) => {
      const order = await repos.orders.getById(refund.orderId);
      const moved = await repos.cardRefunds.update(
        refund.orderId,
        'PENDING',
        { status: 'SUCCEEDED', nextCheckAt: NO_CHECK, lastError: null },
        at,
      );
      // Moved by someone else meanwhile (another worker, the API's retry): nothing left to do here.
      if (moved && order?.status === 'CLOSED') {
        const now = this.core.now(order);
        await this.core.moveOrThrow(repos, order, 'REFUNDED', { refundedAt: now }, now, 'refunded');
      }
    });
  }

  private async failed(refund: CardRefund, connection: Connection, view: RefundView, at: number): Promise<void> {
    const problem = `the refund of order ${refund.orderId} was not made by ${connection.provider} (${view.status}); the order stays CLOSED`;
    await this.uow.transaction(async (repos) => {
      await repos.cardRefunds.update(
        refund.orderId,
        'PENDING',
        { status: 'FAILED', nextCheckAt: NO_CHECK, lastError: problem },
        at,
      );
      await repos.connections.setConnectionError(connection.id, problem, at);
    });
  }

  /** The card connector whose payment the order's provider reference is; null for the built-in processor's. */
  private connectorPaying(order: PaymentOrder): CardConnector | null {
    if (order.paymentMethodType !== 'CARD' || !order.providerRef) {
      return null;
    }
    const ref = order.providerRef;
    for (const provider of CARD_PROVIDERS) {
      let connector: CardConnector;
      try {
        connector = this.connections.connector(provider);
      } catch {
        // Not on this server: none of its payments can be here either.
        continue;
      }
      if (connector.isPaymentRef(ref)) {
        return connector;
      }
    }
    return null;
  }
}

/** The processor down is ours to retry (503, nothing changed); anything else it refused is a conflict the merchant reads. */
function refundFailure(error: unknown, provider: string): unknown {
  if (error instanceof ConnectorError) {
    return error.kind === 'UNAVAILABLE'
      ? new AppError('SERVICE_UNAVAILABLE', [`${provider} refund: ${error.message}; try again shortly`])
      : new AppError('CONFLICT', [`payment order cannot be refunded: ${error.message}`]);
  }
  return error;
}

function partially(charge: ChargeView): string {
  return charge.refunded && charge.amount
    ? `${charge.refunded.amountMinor} of ${charge.amount.amountMinor} ${charge.amount.currency} (minor units) of charge ${charge.id}`
    : `a part of charge ${charge.id}`;
}
