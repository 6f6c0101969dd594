import { amountInMethodCurrency } from '../payment-methods/eligibility.ts';
import type { CardChargeResult } from '../payment-methods/payment-provider.ts';
import { newId } from '../shared/ids.ts';
import type { RecurrentPayment } from '../subscriptions/recurrent-payment.ts';
import type { RenewalCharger } from '../subscriptions/renewal-charger.ts';
import type { ConnectorCardRenewals } from './card-renewals.port.ts';
import type { OrderOpening } from './order-opening.ts';
import type { PaymentOrder } from './payment-order.ts';
import type { PaymentOrderMoveService } from './payment-order-move.service.ts';

/** A subscription's renewal orders: what the billing engine and cancellation call (RenewalCharger). */
export class PaymentRenewalService implements RenewalCharger {
  constructor(
    private readonly opening: OrderOpening,
    private readonly moves: PaymentOrderMoveService,
    /** Renewals of cards saved at a merchant's own processor (a Stripe connection). */
    private readonly connectorCards: ConnectorCardRenewals | null = null,
  ) {}

  getRenewal(recId: string, periodIndex: number, attempt: number): Promise<PaymentOrder | undefined> {
    return this.opening.uow.read.orders.getRenewal(recId, periodIndex, attempt);
  }

  /** A card renewal that cannot be charged (no saved card) expires like any other order. */
  expire(order: PaymentOrder): Promise<PaymentOrder> {
    return this.moves.expire(order);
  }

  /**
   * Opens the order for one try of one period of a subscription: a card order to charge now, or
   * a push-method order with fresh instructions, mailed to the payer. A unique index makes a
   * second opening (another scheduler, a crash and rerun) impossible: then the order that is
   * already there is the answer, `opened: false`. Undefined when the method is gone, or cannot be
   * offered now and the period is not yet due; once it is due, such a try is opened REJECTED.
   */
  async openRenewal(
    rec: RecurrentPayment,
    periodIndex: number,
    attempt: number,
    dueAt: number,
  ): Promise<{ order: PaymentOrder; opened: boolean } | undefined> {
    const now = this.opening.core.now(rec);
    const method = (await this.opening.methods.all()).find((m) => m.id === rec.paymentMethodId);
    if (!method) {
      return undefined;
    }
    const charged = amountInMethodCurrency(
      method,
      { amountMinor: rec.amountMinor, currency: rec.currency },
      this.opening.currencies,
    );
    if (charged === null) {
      return undefined;
    }
    const push = method.type !== 'CARD';
    const offer = await this.opening.availability.offerOf(rec.merchantId, rec.mode);
    const unavailable = offer.whyNot(method);
    if (unavailable && now < dueAt) {
      // Not yet due: the merchant may still set the method up (a PIX key) before the payer must pay.
      return undefined;
    }
    const settings =
      push && !unavailable ? await this.opening.settingsFor(rec.merchantId, rec.mode, offer.settings) : null;
    // With an API Pix connection the PSP makes the code: the order is mailed once its charge is made.
    const pixConnection =
      method.type === 'PIX' && !unavailable && charged > 0n
        ? await this.opening.pixCharges.connectionFor(rec.merchantId, rec.mode)
        : null;
    const orderId = newId();
    // Push renewals give the payer until a day past the due date (or past now, when catching up).
    const expiresAt = Math.max(dueAt, now) + 24 * 3_600_000;
    try {
      const order = await this.opening.uow.transaction(async (repos) => {
        const order = await this.opening.core.open(repos, {
          id: orderId,
          merchantId: rec.merchantId,
          mode: rec.mode,
          checkoutPreferenceId: rec.checkoutPreferenceId,
          recurrentPaymentId: rec.id,
          amountMinor: rec.amountMinor,
          currency: rec.currency,
          chargedAmountMinor: charged,
          chargedCurrency: method.currency,
          title: rec.title,
          origin: 'PAYMENT_LINK',
          externalId: rec.externalId,
          method,
          payer: rec.payer,
          // A card renewal is settled by the billing engine (charged again with the same
          // idempotency key after a crash), never by expiry: expiring it could charge twice.
          expiresAt: push ? expiresAt : now + 30 * 24 * 3_600_000,
          now,
          periodIndex,
          periodAttempt: attempt,
          instructWith: pixConnection === null ? settings : null,
        });
        if (unavailable) {
          // Nothing can take this payment now (live mode offers only what can settle): the try
          // fails at once, and the subscription goes through its retries like any failed renewal.
          return this.opening.core.moveOrThrow(
            repos,
            order,
            'REJECTED',
            { failureCode: unavailable.code, failureMessage: unavailable.message },
            now,
            'rejected',
          );
        }
        if (pixConnection !== null) {
          await this.opening.pixCharges.record(repos, order, pixConnection, now);
        } else if (push) {
          await this.opening.core.effects.renewalOpened(repos, rec, order);
        }
        return order;
      });
      if (pixConnection !== null && order.status === 'OPENED') {
        return { order: await this.opening.pixCharges.create(order), opened: true };
      }
      return { order, opened: true };
    } catch (error) {
      const existing = await this.opening.uow.read.orders.getRenewal(rec.id, periodIndex, attempt);
      if (existing) {
        return { order: existing, opened: false };
      }
      throw error;
    }
  }

  /**
   * Charges a card renewal with the saved token; the order id is the processor's idempotency key.
   * `rec` is the subscription as the billing run read it, which the close updates by compare-and-set.
   */
  async chargeRenewal(order: PaymentOrder, token: string, rec: RecurrentPayment): Promise<PaymentOrder> {
    if (this.connectorCards?.handles(token)) {
      return this.connectorCards.charge(order, token, rec);
    }
    let result: CardChargeResult;
    try {
      result = await this.opening.providers.card.chargeToken({
        token,
        charged: { amountMinor: order.chargedAmountMinor, currency: order.chargedCurrency },
        idempotencyKey: order.id,
        mode: order.mode,
      });
    } catch {
      result = {
        status: 'FAILED',
        ref: null,
        code: 'processor_unavailable',
        message: 'the card processor could not be reached',
      };
    }
    return this.moves.applyCardResult(order, result, rec);
  }

  /**
   * A renewal whose subscription was cancelled. A push order expires (the payer must not pay it
   * now). A card order may have its charge in flight (the billing run is waiting for the
   * processor) or cut off by a crash, so it is not expired: the processor is asked what became of
   * the charge under the order's key, which spends the key, and the order records the answer —
   * CLOSED when the card was charged (the merchant then refunds), REJECTED when it was not.
   * Expiring it instead could leave a charge the order says never happened.
   */
  async withdraw(order: PaymentOrder): Promise<PaymentOrder> {
    if (order.paymentMethodType !== 'CARD') {
      return this.moves.expire(order);
    }
    const rec = this.connectorCards
      ? await this.opening.uow.read.recurrentPayments.getById(order.recurrentPaymentId ?? '')
      : undefined;
    if (rec && this.connectorCards?.handles(rec.cardToken)) {
      return this.connectorCards.withdraw(order, rec);
    }
    const result = await this.opening.providers.card.recover(order.id, order.mode);
    return this.moves.applyCardResult(order, result);
  }
}
