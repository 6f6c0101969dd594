import type { ConnectorCardRenewals } from '../payment-orders/card-renewals.port.ts';
import type { PaymentOrderCore } from '../payment-orders/payment-order.core.ts';
import type { PaymentOrder, PaymentOrderChanges } from '../payment-orders/payment-order.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { AppError } from '../shared/errors.ts';
import type { LinkSigner } from '../shared/link-signer.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { RecurrentPayment } from '../subscriptions/recurrent-payment.ts';
import type { CardConnector, IntentOutcome, IntentView } from './card-connector.ts';
import { ConnectorError } from './card-connector.ts';
import type { CardRenewalMailer } from './card-renewal-mail.ts';
import { isRenewalConfirmationLink } from './card-renewal-mail.ts';
import type { Connection, ConnectorProvider } from './connection.ts';
import type { ConnectorAccess } from './connector-access.ts';
import { parseSavedCard, savedCardToken } from './saved-card.ts';

/** Whether the intent's money is the order's: its amount, and what it received, in the order's currency. */
export function paysOrder(order: PaymentOrder, intent: IntentView): boolean {
  return (
    intent.received?.currency === order.chargedCurrency &&
    intent.received.amountMinor === order.chargedAmountMinor &&
    intent.amount?.amountMinor === order.chargedAmountMinor
  );
}

/** Whether the try needs the payer (their bank wants 3-D Secure) rather than another card. */
function needsPayer(intent: IntentView): boolean {
  return intent.outcome === 'PAYER_ACTION' || intent.failure?.code === 'authentication_required';
}

/** What the payer's confirmation page needs: the order, its intent's client secret, the publishable key. */
export type RenewalConfirmation = {
  rec: RecurrentPayment;
  order: PaymentOrder;
  publishableKey: string;
  clientSecret: string | null;
  paymentMethodId: string | null;
  /** What the processor says of the try now (null once the order is settled, or when it could not be asked). */
  outcome: IntentOutcome | null;
  /** The processor's status word, which tells the page how to hand the payer to their bank. */
  status: string | null;
};

export type CardSubscriptionOptions = {
  /** How long a renewal waits for the payer to confirm it with their bank before the try counts as failed. */
  payerWaitMs: number;
  /**
   * How long an open renewal (the payer's bank waiting, or Stripe not answering) is left before
   * the billing, which runs every second, asks Stripe about it again. Its event, or the payer's
   * return page, settles it sooner.
   */
  recheckMs: number;
};

type Access = { connection: Connection; connector: CardConnector; secretKey: string };

/**
 * Card subscriptions through a merchant's processor connection (INTERFACE §11.1): the first
 * payment saves the card on a customer of the subscriber; each renewal try is an off-session
 * charge keyed by (subscription, period, attempt), so a rerun of the billing, or a lost answer,
 * never charges twice. A decline fails the try into the subscription's dunning; a card whose
 * bank wants the payer keeps the order open and mails them a link to confirm it.
 */
export class CardSubscriptionService implements ConnectorCardRenewals {
  /** When each open renewal was last asked about, by this process (see dueForAsking). */
  private readonly lastAsked = new Map<string, number>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly connectors: ConnectorAccess,
    private readonly orders: PaymentOrderCore,
    private readonly mailer: CardRenewalMailer,
    private readonly signer: LinkSigner,
    private readonly options: CardSubscriptionOptions,
  ) {}

  handles(cardToken: string | null): boolean {
    return parseSavedCard(cardToken) !== null;
  }

  /**
   * The customer a subscription's first payment saves the card on: one per subscription, keyed
   * by it at the processor (a retry gets the same one). Null for an order of no subscription.
   */
  async customerFor(access: Access, order: PaymentOrder): Promise<{ customerId: string } | null> {
    if (order.recurrentPaymentId === null) {
      return null;
    }
    const rec = await this.uow.read.recurrentPayments.getById(order.recurrentPaymentId);
    const payer = rec?.payer ?? order.payer;
    const name = [payer.firstName, payer.lastName].filter(Boolean).join(' ');
    const customer = await access.connector.createCustomer(access.secretKey, {
      subscriptionId: order.recurrentPaymentId,
      email: payer.email,
      name: name === '' ? null : name,
    });
    return { customerId: customer.id };
  }

  /**
   * What closing a subscription's order on a verified success records: the card the intent was
   * paid with (a first payment's becomes the subscription's saved card) and its brand and last four.
   */
  closing(provider: ConnectorProvider, intent: IntentView): { changes: PaymentOrderChanges; cardToken: string | null } {
    const card = intent.card;
    return {
      changes: {
        receivedAmountMinor: intent.received?.amountMinor ?? null,
        ...(card
          ? { instructions: { type: 'CARD', brand: card.brand, last4: card.last4, exp_month: 0, exp_year: 0 } }
          : {}),
      },
      cardToken: savedCardToken(provider, intent),
    };
  }

  async charge(order: PaymentOrder, cardToken: string, rec: RecurrentPayment): Promise<PaymentOrder> {
    const saved = parseSavedCard(cardToken);
    const access = await this.connectors.cardAccess(order.merchantId, order.mode);
    if (!saved || !access || access.connection.provider !== saved.provider) {
      return this.reject(order, {
        code: 'card_connector_missing',
        message: 'the card processor the card was saved with is no longer connected',
      });
    }
    const now = this.orders.now(order);
    if (!this.dueForAsking(order, now)) {
      return order;
    }
    let intent: IntentView;
    try {
      intent = order.providerRef
        ? await access.connector.retrieveIntentWithCard(access.secretKey, order.providerRef)
        : await access.connector.chargeSavedCard(access.secretKey, {
            orderId: order.id,
            preferenceId: order.checkoutPreferenceId,
            amount: { amountMinor: order.chargedAmountMinor, currency: order.chargedCurrency },
            description: order.title,
            customerId: saved.customerId,
            paymentMethodId: saved.paymentMethodId,
            idempotencyKey: `cobro-pi-renew-${rec.id}-${order.periodIndex}-${order.periodAttempt}`,
          });
    } catch (error) {
      if (error instanceof ConnectorError && error.kind !== 'UNAVAILABLE') {
        return this.reject(order, { code: 'processor_error', message: error.message });
      }
      // No answer: the try stays open, and the next billing run asks again under the same key.
      return order;
    }
    return this.apply(access.connection, order, intent, rec);
  }

  /**
   * A charge whose answer was lost may still have been made: the order's intent (or, without
   * one recorded, the customer's intent for this order) is asked for, and a paid one closes the
   * order (the merchant then refunds). Throws when Stripe cannot be asked: the order stays open.
   */
  async withdraw(order: PaymentOrder, rec: RecurrentPayment): Promise<PaymentOrder> {
    const saved = parseSavedCard(rec.cardToken);
    const access = await this.connectors.cardAccess(order.merchantId, order.mode);
    if (access && saved) {
      const intent = order.providerRef
        ? await access.connector.retrieveIntentWithCard(access.secretKey, order.providerRef)
        : await access.connector.findCustomerIntent(access.secretKey, saved.customerId, order.id);
      if (intent?.outcome === 'SETTLE' && paysOrder(order, intent)) {
        return this.close(access.connection, order, intent, rec);
      }
    }
    return this.reject(order, {
      code: 'canceled',
      message: 'the subscription was cancelled before this renewal was paid',
    });
  }

  /**
   * The renewal a signed confirmation link names, with what its page mounts: null unless the
   * signature is this subscription's and this order's, and the order is a renewal of it. What
   * the payer's bank decided is asked of the processor here (the payer came back from
   * confirming, or opened the page again): the order closes on a success in its amount.
   */
  async confirmation(recId: string, orderId: string, sig: string): Promise<RenewalConfirmation | null> {
    if (!isRenewalConfirmationLink(this.signer, recId, orderId, sig)) {
      return null;
    }
    const [rec, order] = await Promise.all([
      this.uow.read.recurrentPayments.getById(recId),
      this.uow.read.orders.getById(orderId),
    ]);
    if (!rec || !order || order.recurrentPaymentId !== rec.id || order.periodAttempt === null) {
      return null;
    }
    const access = await this.connectors.cardAccess(order.merchantId, order.mode);
    if (!access || !order.providerRef) {
      return null;
    }
    let current = order;
    let intent: IntentView | null = null;
    if (order.status === 'OPENED') {
      intent = await access.connector.retrieveIntentWithCard(access.secretKey, order.providerRef).catch(() => null);
      if (intent?.outcome === 'SETTLE' && paysOrder(order, intent)) {
        current = await this.close(access.connection, order, intent, rec).catch(() => order);
      }
    }
    const open = current.status === 'OPENED' ? intent : null;
    return {
      rec,
      order: current,
      publishableKey: access.connection.publishableKey,
      clientSecret: open?.clientSecret ?? null,
      paymentMethodId: open?.paymentMethodId ?? parseSavedCard(rec.cardToken)?.paymentMethodId ?? null,
      outcome: open?.outcome ?? null,
      status: open?.status ?? null,
    };
  }

  /**
   * Whether Stripe is asked about this open renewal now: at once the first time, then once per
   * `recheckMs` (kept per process, so several processes ask a little more often), and always once
   * the payer's time is up. A forgotten entry only means one question more.
   */
  private dueForAsking(order: PaymentOrder, now: number): boolean {
    const asked = this.lastAsked.get(order.id);
    if (
      asked !== undefined &&
      now - asked < this.options.recheckMs &&
      now - order.createdAt < this.options.payerWaitMs
    ) {
      return false;
    }
    if (this.lastAsked.size >= 10_000) {
      for (const [id, at] of this.lastAsked) {
        if (now - at >= this.options.recheckMs) {
          this.lastAsked.delete(id);
        }
      }
    }
    this.lastAsked.set(order.id, now);
    return true;
  }

  /** What the processor's answer makes of the try. */
  private async apply(
    connection: Connection,
    order: PaymentOrder,
    intent: IntentView,
    rec: RecurrentPayment,
  ): Promise<PaymentOrder> {
    if (intent.outcome === 'SETTLE') {
      if (!paysOrder(order, intent)) {
        // Not the order's money: kept open for the merchant to look at, never closed on it.
        return this.record(order, intent.id);
      }
      return this.close(connection, order, intent, rec);
    }
    if (needsPayer(intent)) {
      const now = this.orders.now(order);
      if (now - order.createdAt >= this.options.payerWaitMs) {
        return this.reject(order, {
          code: 'authentication_required',
          message: 'the payer did not confirm the payment with their bank in time',
          providerRef: intent.id,
        });
      }
      return this.uow.transaction(async (repos) => {
        const current = await repos.orders.getById(order.id);
        if (current?.status !== 'OPENED' || current.providerRef === intent.id) {
          return current ?? order;
        }
        await this.updateOpen(repos, current, { providerRef: intent.id }, now);
        // Once per try: the intent is recorded in this same transaction.
        await this.mailer.queue(repos, rec, current, now);
        return { ...current, providerRef: intent.id, updatedAt: now };
      });
    }
    if (intent.outcome === 'FAILED_TRY' || intent.outcome === 'FAILED') {
      return this.reject(order, {
        code: intent.failure?.code ?? 'card_declined',
        message: intent.failure?.message ?? 'the card was declined',
        providerRef: intent.id,
      });
    }
    return this.record(order, intent.id);
  }

  private async record(order: PaymentOrder, intentId: string): Promise<PaymentOrder> {
    if (order.providerRef === intentId) {
      return order;
    }
    const now = this.orders.now(order);
    return this.uow.transaction(async (repos) => {
      await this.updateOpen(repos, order, { providerRef: intentId }, now);
      return { ...order, providerRef: intentId, updatedAt: now };
    });
  }

  private async updateOpen(repos: Repositories, order: PaymentOrder, changes: PaymentOrderChanges, now: number) {
    if (!(await repos.orders.update(order.id, 'OPENED', changes, now))) {
      throw new AppError('CONFLICT', [`payment order ${order.id} changed meanwhile`]);
    }
  }

  private close(connection: Connection, order: PaymentOrder, intent: IntentView, rec: RecurrentPayment) {
    const now = this.orders.now(order);
    const { changes } = this.closing(connection.provider, intent);
    return this.uow.transaction((repos) =>
      this.orders.close(repos, order, { ...changes, providerRef: intent.id }, now, null, rec),
    );
  }

  private reject(
    order: PaymentOrder,
    failure: { code: string; message: string; providerRef?: string },
  ): Promise<PaymentOrder> {
    const now = this.orders.now(order);
    return this.uow.transaction((repos) =>
      this.orders.moveOrThrow(
        repos,
        order,
        'REJECTED',
        {
          failureCode: failure.code,
          failureMessage: failure.message,
          ...(failure.providerRef ? { providerRef: failure.providerRef } : {}),
        },
        now,
        'rejected',
      ),
    );
  }
}
