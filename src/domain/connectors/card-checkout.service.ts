import type { Mode } from '../merchants/merchant.ts';
import type { PaymentOrderCore } from '../payment-orders/payment-order.core.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { CardConnector, IntentView } from './card-connector.ts';
import { ConnectorError } from './card-connector.ts';
import type { CardIntentService } from './card-intent.service.ts';
import type { CardSettlement } from './card-settlement.ts';
import type { Connection } from './connection.ts';
import type { ConnectorAccess } from './connector-access.ts';

/**
 * Where a card order served by the merchant's processor stands for the payer:
 * - `pay`: the card fields (the processor's) can be mounted with this intent; `failure` is why
 *   the last try failed, `payerAction` when the bank asked the payer to authenticate.
 * - `processing`: the processor is still working on it; the page asks again shortly.
 * - `ended`: the order left OPENED (paid, canceled at the processor): the caller shows its outcome.
 * - `unavailable`: the processor could not be reached; the order stays OPENED and a retry gets
 *   the same intent.
 * - `problem`: the processor says the intent was paid, but not the order's amount: the order
 *   stays OPENED for the merchant to look at (the connection's last error says why).
 * - `locked`: too many failed tries on this checkout; its intent was canceled and the order rejected.
 */
export type CardStep =
  | {
      kind: 'pay';
      order: PaymentOrder;
      intentId: string;
      clientSecret: string;
      publishableKey: string;
      failure: { code: string; message: string } | null;
      payerAction: boolean;
    }
  | { kind: 'processing' | 'unavailable' | 'problem'; order: PaymentOrder }
  | { kind: 'ended' | 'locked'; order: PaymentOrder };

export type CardCheckoutOptions = {
  /** Failed tries (declines reported by the processor) after which a checkout refuses more. */
  maxFailedTries: number;
  /** Orders looked at per run of each job pass. */
  batch: number;
  /** How long after an order ended its intent is still checked (and canceled when it can be). */
  endedWindowMs: number;
};

type Access = { connection: Connection; connector: CardConnector; secretKey: string };

/** A connection left alone this long after it was found unreachable, doubling up to the last. */
const BACKOFF_MS = [5_000, 20_000, 60_000, 300_000];

/**
 * Card payments on the hosted checkout through the merchant's own processor (Stripe): the card
 * fields are the processor's, so Cobro never receives a card number. Cobro creates one intent
 * per order (CardIntentService), learns what became of it from the processor only (a verified
 * event, a retrieve when the payer comes back, the settle job), and closes the order by the one
 * rule of CardSettlement. An order that ends unpaid has its intent canceled at the processor, so
 * a page left open cannot pay a dead order; an intent that was paid all the same is recorded on
 * the order as paid late, never lost.
 */
export class CardCheckoutService {
  /** Connections found unreachable, by id: when to try again and how many times in a row. */
  private readonly backoff = new Map<string, { until: number; failures: number }>();
  /** Ended orders whose intent is known to be canceled or recorded (this process need not ask again). */
  private readonly finished = new Set<string>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly connections: ConnectorAccess,
    private readonly intents: CardIntentService,
    private readonly settlement: CardSettlement,
    private readonly core: PaymentOrderCore,
    private readonly options: CardCheckoutOptions,
  ) {}

  /** Whether the merchant's card payments in `mode` go through its processor (a card connection exists). */
  servesCards(merchantId: string, mode: Mode): Promise<boolean> {
    return this.connections.hasCardConnection(merchantId, mode);
  }

  /**
   * The order's intent as the processor has it now (created on first call), and what that means
   * for the payer. Never trusts anything the browser says: the intent is the order's own.
   */
  async step(order: PaymentOrder): Promise<CardStep> {
    const access = await this.connections.cardAccess(order.merchantId, order.mode);
    if (!access) {
      throw new AppError('CONFLICT', [`the merchant has no card processor connected in ${order.mode} mode`]);
    }
    if (
      order.checkoutPreferenceId &&
      (await this.failedTries(order.checkoutPreferenceId)) >= this.options.maxFailedTries
    ) {
      return { kind: 'locked', order: await this.lock(order, access) };
    }
    let intent: IntentView;
    try {
      intent = order.providerRef
        ? await access.connector.retrieveIntent(access.secretKey, order.providerRef)
        : await this.intents.intentFor(order);
    } catch (error) {
      if (isUnavailable(error)) {
        return { kind: 'unavailable', order };
      }
      throw error;
    }
    const applied = await this.apply(order, access.connection, intent);
    if (applied !== 'open') {
      return applied;
    }
    if (intent.outcome === 'WAIT') {
      return { kind: 'processing', order };
    }
    if (!intent.clientSecret) {
      return { kind: 'unavailable', order };
    }
    return {
      kind: 'pay',
      order,
      intentId: intent.id,
      clientSecret: intent.clientSecret,
      publishableKey: access.connection.publishableKey,
      failure: intent.outcome === 'FAILED_TRY' ? intent.failure : null,
      payerAction: intent.outcome === 'PAYER_ACTION',
    };
  }

  /** Failed tries on a checkout's card orders: declines the processor reported, and card orders it rejected. */
  async failedTries(preferenceId: string): Promise<number> {
    const [declines, rejected] = await Promise.all([
      this.uow.read.connections.countFailedTries(preferenceId),
      this.uow.read.orders.countRejectedCardOrders(preferenceId),
    ]);
    return declines + rejected;
  }

  /**
   * The settle job: open card orders of connected merchants whose event may never have come are
   * asked about (oldest first, a bounded batch); paid ones close, canceled ones are rejected.
   * Then ended orders' intents are canceled where they still could be paid.
   */
  async sync(): Promise<void> {
    const accesses = new Map<string, Access | null>();
    for (const order of await this.uow.read.orders.listOpenedCardOrders(this.options.batch)) {
      if (!order.providerRef || order.recurrentPaymentId !== null || order.periodAttempt !== null) {
        continue;
      }
      const access = await this.accessFor(order, accesses);
      if (!access) {
        continue;
      }
      const intent = await this.retrieve(access, order.providerRef);
      if (intent) {
        await this.apply(order, access.connection, intent);
      }
    }
    const since = this.clock.now().getTime() - this.options.endedWindowMs;
    for (const order of await this.uow.read.orders.listEndedCardOrders(since, this.options.batch)) {
      if (!this.finished.has(order.id)) {
        const access = await this.accessFor(order, accesses);
        if (access && (await this.endIntent(order, access))) {
          this.finished.add(order.id);
        }
      }
    }
  }

  /**
   * Cancels the intent of an order that ended unpaid (right after a newer try superseded it,
   * say), unless it was paid meanwhile: that payment is recorded on the order. Best effort: what
   * fails here the job does later.
   */
  async endIntentOf(orderId: string): Promise<void> {
    const order = await this.uow.read.orders.getById(orderId);
    if (order?.paymentMethodType !== 'CARD' || !order.providerRef || order.status === 'OPENED') {
      return;
    }
    const access = await this.accessFor(order, new Map());
    if (access && (await this.endIntent(order, access).catch(() => false))) {
      this.finished.add(order.id);
    }
  }

  /** True when nothing more is to be done about the ended order's intent. */
  private async endIntent(order: PaymentOrder, access: Access): Promise<boolean> {
    if (order.status !== 'EXPIRED' && order.status !== 'REJECTED') {
      return true;
    }
    const ref = order.providerRef ?? '';
    let intent = await this.retrieve(access, ref);
    if (!intent) {
      return false;
    }
    if (intent.outcome !== 'SETTLE' && intent.outcome !== 'FAILED') {
      try {
        intent = await access.connector.cancelIntent(access.secretKey, ref);
      } catch (error) {
        if (!(error instanceof ConnectorError && error.kind === 'REJECTED')) {
          this.noteFailure(access, error);
          return false;
        }
        // Past canceling: paid or canceled meanwhile. Asked again on the next run.
        return false;
      }
    }
    if (intent.outcome === 'SETTLE') {
      await this.recordLate(order, access.connection, intent);
    }
    return true;
  }

  /**
   * What the intent says, applied to the open order: closed when paid (CardSettlement), rejected
   * when canceled at the processor. 'open' when the order stays as it is for the payer to go on.
   */
  private async apply(order: PaymentOrder, connection: Connection, intent: IntentView): Promise<CardStep | 'open'> {
    if (intent.outcome === 'SETTLE') {
      const settled = await this.uow.transaction(async (repos) => {
        const result = await this.settlement.settle(repos, connection, intent);
        if (result.problem) {
          await repos.connections.setConnectionError(connection.id, result.problem, this.clock.now().getTime());
        }
        return result;
      });
      if (settled.outcome === 'amount_mismatch' || settled.outcome === 'unknown_intent') {
        return { kind: 'problem', order };
      }
      if (settled.outcome === 'order_not_open' && settled.order?.status === 'EXPIRED') {
        await this.recordLate(settled.order, connection, intent);
      }
      const fresh = settled.order ?? (await this.uow.read.orders.getById(order.id)) ?? order;
      return fresh.status === 'OPENED' ? 'open' : { kind: 'ended', order: fresh };
    }
    if (intent.outcome === 'FAILED' && order.status === 'OPENED') {
      const rejected = await this.reject(order, 'canceled', 'the payment was canceled at the card processor');
      return { kind: 'ended', order: rejected };
    }
    return 'open';
  }

  /**
   * Money taken for an order that had already ended (expired while the payer was paying): kept on
   * the order as PAID_LATE with what was received, for the merchant to settle by hand (refund or
   * deliver), as every other method's late payment is. Only the intent Cobro created for it counts.
   */
  private async recordLate(order: PaymentOrder, connection: Connection, intent: IntentView): Promise<void> {
    if (
      order.status !== 'EXPIRED' ||
      order.providerRef !== intent.id ||
      order.merchantId !== connection.merchantId ||
      order.mode !== connection.mode ||
      order.anomaly === 'PAID_LATE' ||
      !intent.received ||
      intent.received.currency !== order.chargedCurrency
    ) {
      return;
    }
    const received = intent.received.amountMinor;
    await this.uow.transaction((repos) =>
      repos.orders.update(
        order.id,
        'EXPIRED',
        { anomaly: 'PAID_LATE', receivedAmountMinor: received },
        this.core.now(order),
      ),
    );
  }

  /** The open order REJECTED with its event; one moved meanwhile (by an event, another worker) comes back as it is now. */
  private reject(order: PaymentOrder, failureCode: string, failureMessage: string): Promise<PaymentOrder> {
    const now = this.core.now(order);
    return this.uow
      .transaction((repos) =>
        this.core.moveOrThrow(repos, order, 'REJECTED', { failureCode, failureMessage }, now, 'rejected'),
      )
      .catch(async (error: unknown) => {
        if (error instanceof AppError && error.code === 'CONFLICT') {
          return (await this.uow.read.orders.getById(order.id)) ?? order;
        }
        throw error;
      });
  }

  /** Too many failed tries: the intent is canceled (so no page can pay it) and the order rejected. */
  private async lock(order: PaymentOrder, access: Access): Promise<PaymentOrder> {
    if (order.status !== 'OPENED') {
      return order;
    }
    const rejected = await this.reject(order, 'card_declined', 'too many declined card attempts on this checkout');
    if (rejected.status === 'REJECTED' && (await this.endIntent(rejected, access).catch(() => false))) {
      this.finished.add(rejected.id);
    }
    return rejected;
  }

  /** The merchant's card connection in the order's mode, once per run; null without one or while it backs off. */
  private async accessFor(order: PaymentOrder, cache: Map<string, Access | null>): Promise<Access | null> {
    const key = `${order.merchantId}:${order.mode}`;
    if (!cache.has(key)) {
      cache.set(key, await this.connections.cardAccess(order.merchantId, order.mode).catch(() => null));
    }
    const access = cache.get(key) ?? null;
    const backoff = access ? this.backoff.get(access.connection.id) : undefined;
    return backoff && backoff.until > this.clock.now().getTime() ? null : access;
  }

  /** The intent, or null when it cannot be had now (unreachable: backoff; not found: an order it is not). */
  private async retrieve(access: Access, intentId: string): Promise<IntentView | null> {
    try {
      const intent = await access.connector.retrieveIntent(access.secretKey, intentId);
      this.backoff.delete(access.connection.id);
      return intent;
    } catch (error) {
      this.noteFailure(access, error);
      return null;
    }
  }

  private noteFailure(access: Access, error: unknown): void {
    if (!isUnavailable(error)) {
      return;
    }
    const failures = (this.backoff.get(access.connection.id)?.failures ?? 0) + 1;
    const wait = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length) - 1] ?? 300_000;
    this.backoff.set(access.connection.id, { until: this.clock.now().getTime() + wait, failures });
  }
}

function isUnavailable(error: unknown): boolean {
  return (
    (error instanceof ConnectorError && error.kind === 'UNAVAILABLE') ||
    (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE')
  );
}
