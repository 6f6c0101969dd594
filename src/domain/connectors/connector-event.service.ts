import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { ConnectorEvent } from './card-connector.ts';
import type { CardDisputeService, DisputeEventOutcome } from './card-dispute.service.ts';
import type { CardRefundService, RefundEventOutcome } from './card-refund.service.ts';
import type { CardSettlement } from './card-settlement.ts';
import type { Connection, ConnectorProvider } from './connection.ts';
import type { ConnectorAccess } from './connector-access.ts';

/**
 * What became of an event, stored beside its id:
 * - `closed`: a verified payment_intent.succeeded closed its order.
 * - `unknown_intent`: it names no open card order of this connection paid by that intent (an
 *   intent Cobro did not create, another merchant's or mode's order); nothing changed.
 * - `order_not_open`: the order was already closed, expired or rejected.
 * - `amount_mismatch`: the intent's amount or currency is not the order's; the order stays open
 *   and the connection's last error says why.
 * - `recorded`: an event Cobro keeps but does not act on (yet).
 * - `livemode_mismatch`: a test event at a live connection's URL, or the reverse; nothing changed.
 * - after the payment: what a refund or charge event did (RefundEventOutcome), or a dispute event (DisputeEventOutcome).
 */
export type EventOutcome =
  | 'closed'
  | 'unknown_intent'
  | 'order_not_open'
  | 'amount_mismatch'
  | 'recorded'
  | 'livemode_mismatch'
  | RefundEventOutcome
  | DisputeEventOutcome;

export type ReceivedEvent = { eventId: string; type: string; outcome: EventOutcome; duplicate: boolean };

/**
 * Events a processor sends to a connection's webhook URL (INTERFACE §11.1). The signature is
 * checked on the bytes as received, before anything is parsed; a bad one changes nothing. Each
 * event id is stored once, in the transaction of what it does, so the same event twice has one
 * effect. An order closes only on a verified success for the intent Cobro created for it (the
 * order's provider reference), in the order's amount and currency.
 */
export class ConnectorEventService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly connectors: ConnectorAccess,
    private readonly settlement: CardSettlement,
    /** Refunds and disputes: what happens after the payment (charge.*, refund.*, charge.dispute.* events). */
    private readonly after: { refunds: CardRefundService; disputes: CardDisputeService } | null = null,
  ) {}

  async receive(
    provider: ConnectorProvider,
    webhookId: string,
    rawBody: Buffer,
    signature: string | undefined,
  ): Promise<ReceivedEvent> {
    const found = await this.connectors.byWebhookId(webhookId);
    if (!found || found.connection.provider !== provider) {
      throw new AppError('NOT_FOUND', ['no connection receives events at this URL']);
    }
    const { connection, webhookSecret } = found;
    const event = this.connectors.connector(provider).verifyEvent(rawBody, signature, webhookSecret);
    if (!event) {
      throw new AppError('WRONG_INPUT', [
        'the event signature (Stripe-Signature) is missing, wrong or older than 300 seconds',
      ]);
    }
    const receivedAt = this.clock.now().getTime();
    const received = await this.uow.transaction(async (repos) => {
      const fresh = await repos.connections.insertEvent({
        provider,
        eventId: event.id,
        connectionId: connection.id,
        merchantId: connection.merchantId,
        mode: connection.mode,
        type: event.type,
        objectId: event.intent?.id ?? event.intentId,
        outcome: 'recorded',
        receivedAt,
      });
      if (!fresh) {
        const earlier = await repos.connections.getEvent(provider, event.id);
        return {
          eventId: event.id,
          type: event.type,
          outcome: (earlier?.outcome ?? 'recorded') as EventOutcome,
          duplicate: true,
        };
      }
      const { outcome, problem, checkRefundOf } = await this.apply(repos, connection, event);
      if (outcome !== 'recorded') {
        await repos.connections.setEventOutcome(provider, event.id, outcome);
      }
      await repos.connections.touchConnection(connection.id, receivedAt, problem ?? undefined);
      return { eventId: event.id, type: event.type, outcome, duplicate: false, checkRefundOf };
    });
    const { checkRefundOf, ...answer } = received as ReceivedEvent & { checkRefundOf?: string | null };
    if (checkRefundOf && this.after) {
      // After the commit, outside the transaction: the processor is asked whether the refund is
      // done. If it cannot answer now, or the order moved meanwhile, the card-refund-sync job asks
      // again; the event is kept either way.
      await this.after.refunds.checkOrder(checkRefundOf).catch((error: unknown) => {
        if (!(error instanceof AppError)) {
          throw error;
        }
      });
    }
    return answer;
  }

  private async apply(
    repos: Repositories,
    connection: Connection,
    event: ConnectorEvent,
  ): Promise<{ outcome: EventOutcome; problem: string | null; checkRefundOf?: string | null }> {
    if (event.livemode !== (connection.mode === 'live')) {
      return { outcome: 'livemode_mismatch', problem: null };
    }
    if (this.after && (event.charge || event.refund)) {
      const done = await this.after.refunds.onEvent(repos, connection, event);
      return {
        outcome: done.outcome,
        problem: done.problem,
        checkRefundOf: done.outcome === 'refund_check' ? done.orderId : null,
      };
    }
    if (this.after && event.dispute) {
      return { outcome: await this.after.disputes.onEvent(repos, connection, event), problem: null };
    }
    if (event.type !== 'payment_intent.succeeded' || !event.intent || event.intent.outcome !== 'SETTLE') {
      return { outcome: 'recorded', problem: null };
    }
    const settled = await this.settlement.settle(repos, connection, event.intent);
    if (settled.outcome === 'not_settled') {
      return { outcome: 'recorded', problem: null };
    }
    return { outcome: settled.outcome, problem: settled.problem ? `event ${event.id}: ${settled.problem}` : null };
  }
}
