import type { Mode } from '../merchants/merchant.ts';
import type { PaymentMethod } from '../payment-methods/payment-method.ts';
import type { CardInput, MerchantPaymentSettings, PushPaymentProvider } from '../payment-methods/payment-provider.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { AppError } from '../shared/errors.ts';
import type { TestClocks } from '../shared/test-clocks.ts';
import type { RecurrentPayment } from '../subscriptions/recurrent-payment.ts';
import type { PaymentOrderStatus } from './payment-order.status.ts';
import { assertTransition } from './payment-order.status.ts';
import type { PaymentOrder, PaymentOrderChanges } from './payment-order.ts';
import type { PaymentOrderEffects } from './payment-order-effects.ts';

export type PaymentOrderOptions = {
  /** How long a card order may stay open before it expires (the payer is on the page). */
  cardOrderTtlMs: number;
  /** How long a card charge holds its preference against a second charge. */
  cardLockMs: number;
  /** Declined card attempts after which a checkout refuses more (card-testing defence). */
  maxCardDeclines: number;
  validateCard: (
    card: CardInput,
    now: Date,
  ) => { ok: true } | { ok: false; errors: { field: string; message: string }[] };
};

/**
 * Payment orders: created when a payer completes a method's details on the checkout, moved
 * through OPENED → CLOSED | REJECTED | EXPIRED, CLOSED → REFUNDED. Every move is a
 * compare-and-set on the status with its event written in the same transaction; provider
 * calls happen between transactions, never inside one.
 *
 * One service a step (payment-start, payment-order-move, payment-renewal, payment-order-sweep,
 * payment-order-query); this is what the steps share: the merchant's clock, the move and the
 * close, a push method's instructions, and what every change sets off (PaymentOrderEffects: the
 * event, the subscription, the renewal e-mail).
 */
export class PaymentOrderCore {
  constructor(
    private readonly clocks: TestClocks,
    private readonly providers: { push: Record<string, PushPaymentProvider> },
    readonly effects: PaymentOrderEffects,
  ) {}

  now(who: { merchantId: string; mode: Mode }): number {
    return this.clocks.clockFor(who).now().getTime();
  }

  /** CAS move with its event; CONFLICT when the order was no longer in the expected status. */
  async moveOrThrow(
    repos: Repositories,
    order: PaymentOrder,
    to: PaymentOrderStatus,
    changes: PaymentOrderChanges,
    now: number,
    action: string,
  ): Promise<PaymentOrder> {
    assertTransition(order.status, to, action);
    const updated = await repos.orders.transition(order.id, order.status, to, changes, now);
    if (!updated) {
      const fresh = await repos.orders.getById(order.id);
      assertTransition(fresh?.status ?? order.status, to, action);
      throw new AppError('CONFLICT', [`payment order cannot be ${action}: it changed meanwhile`]);
    }
    if (order.checkoutPreferenceId && (to === 'REJECTED' || to === 'EXPIRED')) {
      await repos.preferences.releaseCharging(order.checkoutPreferenceId, order.id);
    }
    if (order.paymentMethodType === 'PIX' && (to === 'REJECTED' || to === 'EXPIRED')) {
      // Ended unpaid: its charge at the PSP, if it has one, is removed at once (no old code stays payable).
      await repos.pixCharges.dueNow(order.id);
    }
    await this.effects.moved(repos, updated, now);
    return updated;
  }

  /** OPENED → CLOSED, and the preference OPEN → PAID in the same transaction. */
  async close(
    repos: Repositories,
    order: PaymentOrder,
    changes: PaymentOrderChanges,
    now: number,
    cardToken: string | null = null,
    subscriptionAsRead?: RecurrentPayment,
  ): Promise<PaymentOrder> {
    const closed = await this.moveOrThrow(repos, order, 'CLOSED', { ...changes, closedAt: now }, now, 'closed');
    await this.effects.closed(repos, closed, cardToken, now, subscriptionAsRead);
    if (order.checkoutPreferenceId && order.periodAttempt === null) {
      if (!(await repos.preferences.markPaid(order.checkoutPreferenceId, order.id, now))) {
        throw new AppError('CONFLICT', [
          'checkout preference is no longer open; the payment was not recorded as closing it',
        ]);
      }
    }
    return closed;
  }

  /**
   * Opens an order inside the caller's transaction: a push method's instructions, made with the
   * merchant's settings in `instructWith` (see preparePush; null for a card, or nothing to pay),
   * the OPENED record, and its event.
   */
  async open(
    repos: Repositories,
    order: OpenedOrderInput & { instructWith: MerchantPaymentSettings | null },
  ): Promise<PaymentOrder> {
    const instructWith = order.instructWith;
    const prepared = instructWith
      ? await this.preparePush(repos, {
          orderId: order.id,
          merchantId: order.merchantId,
          mode: order.mode,
          method: order.method,
          charged: order.chargedAmountMinor,
          payer: order.payer,
          expiresAt: order.expiresAt,
          settings: instructWith,
        })
      : { instructions: null, ref: null };
    const opened = newOpenedOrder(order, prepared.instructions, prepared.ref);
    await repos.orders.insert(opened);
    await this.effects.opened(repos, opened, order.now);
    return opened;
  }

  /**
   * A push method's instructions (BR Code, fresh address, reference, voucher), built inside the
   * order's transaction: address indexes and reference numbers come from per-merchant counters.
   */
  private async preparePush(
    repos: Repositories,
    input: {
      orderId: string;
      merchantId: string;
      mode: Mode;
      method: PaymentMethod;
      charged: bigint;
      payer: PaymentOrder['payer'];
      expiresAt: number;
      settings: MerchantPaymentSettings;
    },
  ): Promise<{ instructions: PaymentOrder['instructions']; ref: string | null }> {
    const { method } = input;
    const provider = method.type === 'CARD' ? undefined : this.providers.push[method.type];
    if (!provider) {
      throw new AppError('WRONG_INPUT', [`payment_method_id: ${method.type} is not available`]);
    }
    const network = method.network?.id ?? method.type;
    const index =
      method.type === 'CRYPTO_ONCHAIN'
        ? Number((await repos.counters.next(input.merchantId, input.mode, `address:${network}`)) - 1n)
        : 0;
    const prepared = provider.prepare({
      orderId: input.orderId,
      merchantId: input.merchantId,
      mode: input.mode,
      method,
      charged: { amountMinor: input.charged, currency: method.currency },
      payer: input.payer,
      expiresAt: new Date(input.expiresAt),
      settings: input.settings,
      derivationIndex: index,
      sequence: await repos.counters.next(input.merchantId, input.mode, 'reference'),
    });
    if (!prepared.ok) {
      throw new AppError('WRONG_INPUT', [`payment_method_id: ${prepared.error.message}`]);
    }
    return { instructions: prepared.instructions, ref: prepared.ref };
  }
}

/** What a new order takes from its caller; every other member starts the same for all orders. */
type OpenedOrderInput = Pick<
  PaymentOrder,
  | 'id'
  | 'merchantId'
  | 'mode'
  | 'checkoutPreferenceId'
  | 'recurrentPaymentId'
  | 'amountMinor'
  | 'currency'
  | 'chargedAmountMinor'
  | 'chargedCurrency'
  | 'title'
  | 'origin'
  | 'externalId'
  | 'payer'
  | 'expiresAt'
  | 'periodIndex'
  | 'periodAttempt'
> & { method: PaymentMethod; now: number };

/**
 * A new OPENED order: the one place the order record's initial values are spelled out. Member
 * by member, not by object rest (`{ method, now, ...given }`) and spread: V8 builds a rest
 * object through its generic runtime path, which is slow over the order's twenty-odd members
 * (docs/performance.md, "The pay path"). The return type makes the compiler name any member
 * left out.
 */
function newOpenedOrder(
  given: OpenedOrderInput,
  instructions: PaymentOrder['instructions'],
  providerRef: string | null,
): PaymentOrder {
  return {
    id: given.id,
    merchantId: given.merchantId,
    mode: given.mode,
    checkoutPreferenceId: given.checkoutPreferenceId,
    recurrentPaymentId: given.recurrentPaymentId,
    amountMinor: given.amountMinor,
    currency: given.currency,
    chargedAmountMinor: given.chargedAmountMinor,
    chargedCurrency: given.chargedCurrency,
    title: given.title,
    origin: given.origin,
    externalId: given.externalId,
    payer: given.payer,
    instructions,
    providerRef,
    expiresAt: given.expiresAt,
    periodIndex: given.periodIndex,
    periodAttempt: given.periodAttempt,
    paymentMethodId: given.method.id,
    paymentMethodType: given.method.type,
    receivedAmountMinor: null,
    chainProgress: null,
    status: 'OPENED',
    anomaly: 'NONE',
    failureCode: null,
    failureMessage: null,
    sequence: 1,
    createdAt: given.now,
    updatedAt: given.now,
    expiredAt: null,
    closedAt: null,
    refundedAt: null,
  };
}
