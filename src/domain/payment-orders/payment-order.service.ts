import type { PayerInput } from '../checkout-preferences/checkout-preference.rules.ts';
import { normalizePayer } from '../checkout-preferences/checkout-preference.rules.ts';
import type { CheckoutPreference } from '../checkout-preferences/checkout-preference.ts';
import { effectiveStatus } from '../checkout-preferences/checkout-preference.ts';
import type { CurrencyTable } from '../currencies/currency.ts';
import type { DomainEvent } from '../events/event.ts';
import { paymentOrderEvent } from '../events/event.ts';
import type { Caller, Mode } from '../merchants/merchant.ts';
import { amountInMethodCurrency, eligibleMethods, ineligibilityReason } from '../payment-methods/eligibility.ts';
import type { PaymentMethodService } from '../payment-methods/payment-method.service.ts';
import type { PaymentMethod } from '../payment-methods/payment-method.ts';
import type {
  CardChargeResult,
  CardInput,
  CardPaymentProvider,
  ChainWatcher,
  MerchantPaymentSettings,
  PushPaymentProvider,
} from '../payment-methods/payment-provider.ts';
import type { Repositories } from '../repositories.ts';
import { AppError, notFound } from '../shared/errors.ts';
import { isWellFormedId, newId } from '../shared/ids.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { TestClocks } from '../shared/test-clocks.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { RecurrentPayment } from '../subscriptions/recurrent-payment.ts';
import type { PaymentOrderStatus } from './payment-order.status.ts';
import { assertTransition } from './payment-order.status.ts';
import type { PaymentOrder, PaymentOrderChanges, PaymentOrderFilter } from './payment-order.ts';

export type StartPaymentInput = {
  paymentMethodId?: string | null;
  payer?: PayerInput | null;
  /** Card data typed by the payer: passed to the processor only. */
  card?: CardInput | null;
  /** The payer allows the card to be kept (as a processor token) for a subscription's renewals. */
  saveCard?: boolean;
  /** Runs inside the transaction that opens the order (the caller records its recovery point there). */
  onOpened?: (repos: Repositories, order: PaymentOrder) => Promise<void>;
};

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

/** An EXPIRED order whose payment, arriving late, is recorded as PAID_LATE: none yet, a part, or an earlier late part. */
const LATE_RECORDABLE = new Set<string>(['NONE', 'UNDERPAID', 'PAID_LATE']);

const CARD_FIELDS: Record<string, string> = {
  number: 'card.number',
  expiry: 'card.expiry',
  cvc: 'card.cvc',
  holderName: 'card.holder_name',
};

/**
 * Payment orders: created when a payer completes a method's details on the checkout, moved
 * through OPENED → CLOSED | REJECTED | EXPIRED, CLOSED → REFUNDED. Every move is a
 * compare-and-set on the status with its event written in the same transaction; provider
 * calls happen between transactions, never inside one.
 */
/** What payment orders tell their subscription, inside the same transaction. */
export interface SubscriptionHooks {
  forCheckout(
    repos: Repositories,
    pref: CheckoutPreference,
    method: PaymentMethod,
    payer: PaymentOrder['payer'],
    now: number,
  ): Promise<RecurrentPayment>;
  firstCharge(rec: Pick<RecurrentPayment, 'signupFeeMinor' | 'amountMinor' | 'trialIntervalCount'>): bigint;
  onOrderClosed(repos: Repositories, order: PaymentOrder, cardToken: string | null, now: number): Promise<void>;
  onOrderFailed(repos: Repositories, order: PaymentOrder, now: number): Promise<void>;
  mailRenewal(repos: Repositories, rec: RecurrentPayment, order: PaymentOrder): Promise<void>;
}

export class PaymentOrderService {
  private subscriptions: SubscriptionHooks | null = null;

  /** Set once at wiring time (subscriptions and payment orders need each other). */
  useSubscriptions(hooks: SubscriptionHooks): void {
    this.subscriptions = hooks;
  }

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clocks: TestClocks,
    private readonly currencies: CurrencyTable,
    private readonly methods: PaymentMethodService,
    private readonly providers: {
      card: CardPaymentProvider;
      push: Record<string, PushPaymentProvider>;
      /** Test mode's chain, and live mode's. */
      chain: ChainWatcher;
      liveChain: ChainWatcher;
    },
    private readonly settingsFor: (merchantId: string, mode: Mode) => Promise<MerchantPaymentSettings>,
    private readonly options: PaymentOrderOptions,
    /** Writes the event and its webhook deliveries, inside the caller's transaction (the outbox). */
    private readonly publish: (repos: Repositories, event: DomainEvent) => Promise<void>,
  ) {}

  private now(who: { merchantId: string; mode: Mode }): number {
    return this.clocks.clockFor(who).now().getTime();
  }

  // ---- reading ------------------------------------------------------------------------------

  async get(caller: Caller, id: string): Promise<PaymentOrder> {
    const order = isWellFormedId(id) ? await this.uow.read.orders.get(caller.merchantId, caller.mode, id) : undefined;
    if (!order) {
      throw notFound('payment order');
    }
    return order;
  }

  list(caller: Caller, page: PageRequest, filter: PaymentOrderFilter): Promise<Page<PaymentOrder>> {
    return this.uow.read.orders.list(caller.merchantId, caller.mode, page, filter);
  }

  /** For the hosted checkout: an order of this preference (the pair of ids is the payer's capability). */
  async getForCheckout(preferenceId: string, orderId: string): Promise<PaymentOrder | undefined> {
    const order = isWellFormedId(orderId) ? await this.uow.read.orders.getById(orderId) : undefined;
    return order && order.checkoutPreferenceId === preferenceId ? order : undefined;
  }

  /** The preference's most recent order, if any. */
  async latestForPreference(preferenceId: string): Promise<PaymentOrder | undefined> {
    // The preference's own pointer: timestamps can tie within one clock tick.
    const pref = isWellFormedId(preferenceId) ? await this.uow.read.preferences.getById(preferenceId) : undefined;
    return pref?.paymentOrderId ? this.getForCheckout(pref.id, pref.paymentOrderId) : undefined;
  }

  /** The methods a payer may choose for this preference, in catalogue order. */
  async eligibleFor(pref: CheckoutPreference): Promise<PaymentMethod[]> {
    const all = await this.methods.all();
    const query = {
      amount: { amountMinor: pref.amountMinor, currency: pref.currency },
      types: pref.paymentMethodTypes,
      recurrent: pref.type === 'SUBSCRIPTION',
    };
    const methods = (
      pref.selectedPaymentMethodId ? all.filter((m) => m.id === pref.selectedPaymentMethodId) : all
    ).filter((m) => this.methods.availableIn(pref.mode, m));
    return eligibleMethods(methods, query, this.currencies);
  }

  // ---- starting a payment -------------------------------------------------------------------

  /**
   * What a payer does on the hosted checkout (and what the pay test helper does): choose a
   * method, give the missing payer details and the method's own data. Returns the order.
   */
  async start(preferenceId: string, input: StartPaymentInput): Promise<PaymentOrder> {
    const pref = isWellFormedId(preferenceId) ? await this.uow.read.preferences.getById(preferenceId) : undefined;
    if (!pref) {
      throw notFound('checkout preference');
    }
    const who = { merchantId: pref.merchantId, mode: pref.mode };
    const now = this.now(who);
    const status = effectiveStatus(pref, now);
    if (status !== 'OPEN') {
      throw new AppError('CONFLICT', [`checkout preference cannot be paid: status is ${status}, expected OPEN`]);
    }

    // 1. The method: the preference's selected one, or the payer's choice among the eligible.
    const messages: string[] = [];
    const methodId = pref.selectedPaymentMethodId ?? input.paymentMethodId ?? null;
    const all = await this.methods.all();
    const method = methodId ? all.find((m) => m.id === methodId) : undefined;
    if (!method) {
      messages.push(methodId ? 'payment_method_id: no such payment method' : 'payment_method_id is required');
    } else {
      const reason = ineligibilityReason(
        method,
        {
          amount: { amountMinor: pref.amountMinor, currency: pref.currency },
          types: pref.paymentMethodTypes,
          recurrent: pref.type === 'SUBSCRIPTION',
        },
        this.currencies,
      );
      if (reason) {
        messages.push(`payment_method_id: the payment method ${reason}`);
      }
    }

    // 2. The payer: what the merchant gave wins; the payer fills in the rest.
    const given = normalizePayer(input.payer, messages);
    const payer = {
      email: pref.payer.email ?? given.email,
      firstName: pref.payer.firstName ?? given.firstName,
      lastName: pref.payer.lastName ?? given.lastName,
      phoneNumber: pref.payer.phoneNumber ?? given.phoneNumber,
    };
    for (const [field, value] of [
      ['payer.email', payer.email],
      ['payer.first_name', payer.firstName],
      ['payer.last_name', payer.lastName],
    ] as const) {
      if (value === null && !messages.some((m) => m.startsWith(field))) {
        messages.push(`${field} is required`);
      }
    }

    // 3. The card, checked before anything is written (nothing of it is kept).
    if (method?.type === 'CARD') {
      if (!input.card) {
        messages.push('card is required for a card payment');
      } else {
        const checked = this.options.validateCard(input.card, new Date(now));
        if (!checked.ok) {
          for (const e of checked.errors) {
            messages.push(`${CARD_FIELDS[e.field] ?? 'card'}: ${e.message}`);
          }
        }
      }
    }
    if (messages.length > 0 || !method) {
      throw new AppError('WRONG_INPUT', messages);
    }
    if (
      amountInMethodCurrency(method, { amountMinor: pref.amountMinor, currency: pref.currency }, this.currencies) ===
      null
    ) {
      throw new AppError('WRONG_INPUT', ['payment_method_id: the payment method cannot take this currency']);
    }
    const settings = await this.settingsFor(pref.merchantId, pref.mode);

    // 4. The order, OPENED, with its event; other open orders of this checkout are superseded.
    const orderId = newId();
    const isCard = method.type === 'CARD';
    const expiresAt = isCard ? Math.min(pref.expiresAt, now + this.options.cardOrderTtlMs) : pref.expiresAt;
    const chargedBox = { value: 0n };
    const opened = await this.uow.transaction(async (repos) => {
      const current = await repos.preferences.getById(pref.id);
      if (!current || effectiveStatus(current, now) !== 'OPEN') {
        throw new AppError('CONFLICT', [
          `checkout preference cannot be paid: status is ${current ? effectiveStatus(current, now) : 'unknown'}, expected OPEN`,
        ]);
      }
      if (isCard) {
        if ((await repos.orders.countRejectedCardOrders(pref.id)) >= this.options.maxCardDeclines) {
          throw new AppError('CONFLICT', [
            'checkout preference is locked after too many declined card attempts; ask the merchant for a new checkout',
          ]);
        }
        if (!(await repos.preferences.claimCharging(pref.id, orderId, now + this.options.cardLockMs, now))) {
          throw new AppError('CONFLICT', ['a payment for this checkout is already being processed']);
        }
      }
      for (const other of await repos.orders.listForPreference(pref.id)) {
        if (other.status === 'OPENED') {
          await this.moveOrThrow(
            repos,
            other,
            'EXPIRED',
            { expiredAt: now, failureCode: 'superseded' },
            now,
            'superseded',
          );
        }
      }
      // A SUBSCRIPTION checkout charges the sign-up fee plus the first period (only the fee during a trial).
      let recurrentPaymentId: string | null = null;
      let amountMinor = pref.amountMinor;
      let periodIndex: number | null = null;
      if (pref.type === 'SUBSCRIPTION' && this.subscriptions) {
        const rec = await this.subscriptions.forCheckout(repos, current, method, payer, now);
        recurrentPaymentId = rec.id;
        amountMinor = this.subscriptions.firstCharge(rec);
        periodIndex = rec.trialIntervalCount > 0 ? null : 0;
      }
      const charged =
        amountInMethodCurrency(method, { amountMinor, currency: pref.currency }, this.currencies) ?? amountMinor;
      chargedBox.value = charged;
      const prepared =
        !isCard && charged > 0n
          ? await this.preparePush(repos, {
              orderId,
              merchantId: pref.merchantId,
              mode: pref.mode,
              method,
              charged,
              payer,
              expiresAt,
              settings,
            })
          : { instructions: null, ref: null };
      const order = newOpenedOrder({
        id: orderId,
        merchantId: pref.merchantId,
        mode: pref.mode,
        checkoutPreferenceId: pref.id,
        recurrentPaymentId,
        amountMinor,
        currency: pref.currency,
        chargedAmountMinor: charged,
        chargedCurrency: method.currency,
        title: pref.title,
        origin: pref.origin,
        externalId: pref.externalId,
        method,
        payer,
        instructions: prepared.instructions,
        providerRef: prepared.ref,
        expiresAt,
        now,
        periodIndex,
        periodAttempt: null,
      });
      await repos.orders.insert(order);
      await this.publish(repos, paymentOrderEvent(order, now));
      await repos.preferences.setLatestOrder(pref.id, orderId, now);
      await input.onOpened?.(repos, order);
      if (!isCard && charged === 0n) {
        // Nothing to pay now (a trial without sign-up fee): the method is recorded and the checkout done.
        return this.close(repos, order, {}, now, null);
      }
      return order;
    });
    const charged = chargedBox.value;
    if (!isCard || !input.card || opened.status !== 'OPENED') {
      return opened;
    }

    // 5. The card charge: outside any transaction, keyed by the order so a retry never charges twice.
    let result: CardChargeResult;
    try {
      result = await this.providers.card.charge({
        orderId,
        merchantId: pref.merchantId,
        mode: pref.mode,
        method,
        charged: { amountMinor: charged, currency: method.currency },
        payer,
        expiresAt: new Date(expiresAt),
        settings,
        derivationIndex: 0,
        sequence: 0n,
        card: input.card,
        saveCard: input.saveCard === true || pref.type === 'SUBSCRIPTION',
        idempotencyKey: orderId,
      });
    } catch {
      result = {
        status: 'FAILED',
        ref: null,
        code: 'processor_unavailable',
        message: 'We could not reach the card processor. Please try again in a moment.',
      };
    }
    return this.applyCardResult(opened, result);
  }

  async applyCardResult(order: PaymentOrder, result: CardChargeResult): Promise<PaymentOrder> {
    const now = this.now(order);
    return this.uow.transaction(async (repos) => {
      if (result.status === 'FAILED') {
        const moved = await this.moveOrThrow(
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
      return this.close(repos, order, changes, now, result.token);
    });
  }

  // ---- moving an order ------------------------------------------------------------------------

  /** CAS move with its event; CONFLICT when the order was no longer in the expected status. */
  private async moveOrThrow(
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
    if (order.recurrentPaymentId && this.subscriptions && (to === 'REJECTED' || to === 'EXPIRED')) {
      await this.subscriptions.onOrderFailed(repos, updated, now);
    }
    await this.publish(repos, paymentOrderEvent(updated, now));
    return updated;
  }

  /** OPENED → CLOSED, and the preference OPEN → PAID in the same transaction. */
  private async close(
    repos: Repositories,
    order: PaymentOrder,
    changes: PaymentOrderChanges,
    now: number,
    cardToken: string | null = null,
  ): Promise<PaymentOrder> {
    const closed = await this.moveOrThrow(repos, order, 'CLOSED', { ...changes, closedAt: now }, now, 'closed');
    if (order.recurrentPaymentId && this.subscriptions) {
      await this.subscriptions.onOrderClosed(repos, closed, cardToken, now);
    }
    if (order.checkoutPreferenceId && order.periodAttempt === null) {
      if (!(await repos.preferences.markPaid(order.checkoutPreferenceId, order.id, now))) {
        throw new AppError('CONFLICT', [
          'checkout preference is no longer open; the payment was not recorded as closing it',
        ]);
      }
      await repos.preferences.releaseCharging(order.checkoutPreferenceId, order.id);
    }
    return closed;
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
    const now = this.now(order);
    const amount = received ?? order.chargedAmountMinor;
    const outcome = await this.uow.transaction(async (repos): Promise<PaymentOrder | 'LATE'> => {
      const current = await repos.orders.getById(order.id);
      if (!current) {
        throw notFound('payment order');
      }
      if (current.status === 'EXPIRED' && LATE_RECORDABLE.has(current.anomaly)) {
        // Committed, then reported: the money arrived and must not be forgotten (a later top-up
        // of an address watched after expiry updates the amount).
        await repos.orders.update(current.id, 'EXPIRED', { anomaly: 'PAID_LATE', receivedAmountMinor: amount }, now);
        return 'LATE';
      }
      assertTransition(current.status, 'CLOSED', 'confirmed');
      if (now >= current.expiresAt) {
        await this.moveOrThrow(
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
      return this.close(
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
    const order = await this.get(caller, id);
    if (order.paymentMethodType !== 'BANK_TRANSFER') {
      throw new AppError('CONFLICT', [
        `payment order cannot be confirmed by the merchant: method is ${order.paymentMethodType}, expected BANK_TRANSFER`,
      ]);
    }
    return this.confirm(order);
  }

  /** The provider reports a failed payment (test helper outcome REJECTED for push methods). */
  async reject(order: PaymentOrder, code: string, message: string): Promise<PaymentOrder> {
    const now = this.now(order);
    return this.uow.transaction((repos) =>
      this.moveOrThrow(repos, order, 'REJECTED', { failureCode: code, failureMessage: message }, now, 'rejected'),
    );
  }

  async expire(order: PaymentOrder): Promise<PaymentOrder> {
    const now = this.now(order);
    return this.uow.transaction((repos) =>
      this.moveOrThrow(repos, order, 'EXPIRED', { expiredAt: now }, now, 'expired'),
    );
  }

  /** Full refund of a CLOSED order, through its provider; push methods are refunded by the merchant and recorded here. */
  async refund(caller: Caller, id: string): Promise<PaymentOrder> {
    const order = await this.get(caller, id);
    assertTransition(order.status, 'REFUNDED', 'refunded');
    if (order.paymentMethodType === 'CARD' && order.providerRef) {
      const refunded = await this.providers.card.refund(order.providerRef, order.mode);
      if (!refunded.ok) {
        throw new AppError('CONFLICT', [`payment order cannot be refunded: ${refunded.error.message}`]);
      }
    }
    const now = this.now(order);
    return this.uow.transaction((repos) =>
      this.moveOrThrow(repos, order, 'REFUNDED', { refundedAt: now }, now, 'refunded'),
    );
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

  // ---- renewals (the billing engine calls these) ------------------------------------------------

  getRenewal(recId: string, periodIndex: number, attempt: number): Promise<PaymentOrder | undefined> {
    return this.uow.read.orders.getRenewal(recId, periodIndex, attempt);
  }

  /**
   * Opens the order for one try of one period of a subscription: a card order to charge now, or
   * a push-method order with fresh instructions, mailed to the payer. A unique index makes a
   * second opening (another scheduler, a crash and rerun) impossible: that case returns undefined.
   */
  async openRenewal(
    rec: RecurrentPayment,
    periodIndex: number,
    attempt: number,
    dueAt: number,
  ): Promise<PaymentOrder | undefined> {
    const now = this.now(rec);
    const method = (await this.methods.all()).find((m) => m.id === rec.paymentMethodId);
    if (!method) {
      return undefined;
    }
    const charged = amountInMethodCurrency(
      method,
      { amountMinor: rec.amountMinor, currency: rec.currency },
      this.currencies,
    );
    if (charged === null) {
      return undefined;
    }
    const settings = await this.settingsFor(rec.merchantId, rec.mode);
    const orderId = newId();
    // Push renewals give the payer until a day past the due date (or past now, when catching up).
    const expiresAt = Math.max(dueAt, now) + 24 * 3_600_000;
    try {
      return await this.uow.transaction(async (repos) => {
        const prepared =
          method.type !== 'CARD'
            ? await this.preparePush(repos, {
                orderId,
                merchantId: rec.merchantId,
                mode: rec.mode,
                method,
                charged,
                payer: rec.payer,
                expiresAt,
                settings,
              })
            : { instructions: null, ref: null };
        const order = newOpenedOrder({
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
          instructions: prepared.instructions,
          providerRef: prepared.ref,
          // A card renewal is settled by the billing engine (charged again with the same
          // idempotency key after a crash), never by expiry: expiring it could charge twice.
          expiresAt: method.type === 'CARD' ? now + 30 * 24 * 3_600_000 : expiresAt,
          now,
          periodIndex,
          periodAttempt: attempt,
        });
        await repos.orders.insert(order);
        await this.publish(repos, paymentOrderEvent(order, now));
        if (method.type !== 'CARD' && this.subscriptions) {
          await this.subscriptions.mailRenewal(repos, rec, order);
        }
        return order;
      });
    } catch (error) {
      if (await this.uow.read.orders.getRenewal(rec.id, periodIndex, attempt)) {
        return undefined;
      }
      throw error;
    }
  }

  /** Charges a card renewal with the saved token; the order id is the processor's idempotency key. */
  async chargeRenewal(order: PaymentOrder, token: string): Promise<PaymentOrder> {
    let result: CardChargeResult;
    try {
      result = await this.providers.card.chargeToken({
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
    return this.applyCardResult(order, result);
  }

  // ---- jobs -----------------------------------------------------------------------------------

  /** Expires open orders and preferences whose time has passed, each by its merchant's clock. */
  async expireDue(): Promise<number> {
    const base = this.clocks.system.now().getTime();
    const advanced = this.clocks.advanced();
    const horizon = base + Math.max(0, ...advanced.map((a) => a.offsetMs));
    let count = 0;
    for (const order of await this.uow.read.orders.listDueForExpiry(horizon, 500)) {
      if (order.expiresAt <= this.now(order)) {
        try {
          await this.expire(order);
          count++;
        } catch (error) {
          if (!(error instanceof AppError && error.code === 'CONFLICT')) {
            throw error;
          }
        }
      }
    }
    // Most ticks find nothing: asking first spares them the write lock (SQLite) or a BEGIN/COMMIT (PostgreSQL).
    if (!(await this.uow.read.preferences.anyDue(horizon))) {
      return count;
    }
    const moved = advanced.map((a) => a.merchantId);
    await this.uow.transaction(async (repos) => {
      await repos.preferences.expireDue(base, { mode: 'live' }, 1000);
      await repos.preferences.expireDue(base, { mode: 'test', excludeMerchants: moved }, 1000);
      for (const a of advanced) {
        await repos.preferences.expireDue(base + a.offsetMs, { mode: 'test', merchantId: a.merchantId }, 1000);
      }
    });
    return count;
  }

  /**
   * Card orders the processor left PENDING: ask again and settle them. And card orders whose
   * charge was cut (the process died mid-call: OPENED with no processor reference, older than the
   * card lock): the processor says what became of the charge under the order's key, and refuses
   * any charge under it from now on, so the order is settled by what happened — paid, refused,
   * or never charged (REJECTED, the checkout free to pay again) — and never charged twice.
   */
  async syncPendingCards(): Promise<void> {
    for (const order of await this.uow.read.orders.listOpenedByType('CARD', 200)) {
      let result: CardChargeResult | null;
      if (order.providerRef) {
        result = await this.providers.card.sync(order.providerRef);
      } else if (order.periodAttempt === null && order.createdAt <= this.now(order) - this.options.cardLockMs) {
        // (A renewal is not recovered here: billing charges it again under the same key.)
        result = await this.providers.card.recover(order.id, order.mode).catch(() => null);
      } else {
        continue;
      }
      // A recovered charge is recorded even when still PENDING (it then has its reference).
      if (result && (result.status !== 'PENDING' || !order.providerRef)) {
        // Another process may settle it first: then this move finds the order changed, and that is fine.
        await this.applyCardResult(order, result).catch(() => undefined);
      }
    }
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
  | 'instructions'
  | 'providerRef'
  | 'expiresAt'
  | 'periodIndex'
  | 'periodAttempt'
> & { method: PaymentMethod; now: number };

/** A new OPENED order: the one place the order record's initial values are spelled out. */
function newOpenedOrder({ method, now, ...given }: OpenedOrderInput): PaymentOrder {
  return {
    ...given,
    paymentMethodId: method.id,
    paymentMethodType: method.type,
    receivedAmountMinor: null,
    chainProgress: null,
    status: 'OPENED',
    anomaly: 'NONE',
    failureCode: null,
    failureMessage: null,
    sequence: 1,
    createdAt: now,
    updatedAt: now,
    expiredAt: null,
    closedAt: null,
    refundedAt: null,
  };
}
