import type { PayerInput } from '../checkout-preferences/checkout-preference.rules.ts';
import { normalizePayer } from '../checkout-preferences/checkout-preference.rules.ts';
import type { CheckoutPreference } from '../checkout-preferences/checkout-preference.ts';
import { effectiveStatus } from '../checkout-preferences/checkout-preference.ts';
import type { StoredSettings } from '../merchants/merchant-settings.ts';
import { amountInMethodCurrency, ineligibilityReason } from '../payment-methods/eligibility.ts';
import { methodLabel, reasonClause } from '../payment-methods/method-availability.ts';
import type { CardChargeResult, CardInput } from '../payment-methods/payment-provider.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Locale } from '../shared/language.ts';
import { getOwned } from '../shared/owned.ts';
import type { OrderOpening } from './order-opening.ts';
import type { PaymentOrderOptions } from './payment-order.core.ts';
import type { PaymentOrder } from './payment-order.ts';
import type { PaymentOrderMoveService } from './payment-order-move.service.ts';

export type StartPaymentInput = {
  paymentMethodId?: string | null;
  payer?: PayerInput | null;
  /** Card data typed by the payer: passed to the processor only. */
  card?: CardInput | null;
  /** The payer allows the card to be kept (as a processor token) for a subscription's renewals. */
  saveCard?: boolean;
  /** The merchant's stored settings when the caller has just read them (the checkout has), so they are not read again. */
  merchantSettings?: StoredSettings;
  /** The language of the page the payer paid on: a subscription's e-mails are written in it (default English). */
  language?: Locale | null;
  /** Runs inside the transaction that opens the order (the caller records its recovery point there). */
  onOpened?: (repos: Repositories, order: PaymentOrder) => Promise<void>;
};

const CARD_FIELDS: Record<string, string> = {
  number: 'card.number',
  expiry: 'card.expiry',
  cvc: 'card.cvc',
  holderName: 'card.holder_name',
};

/** Starting a payment: the payer's method, details and card checked, the order opened, a card charged. */
export class PaymentStartService {
  constructor(
    private readonly opening: OrderOpening,
    private readonly options: PaymentOrderOptions,
    private readonly moves: PaymentOrderMoveService,
  ) {}

  /**
   * What a payer does on the hosted checkout (and what the pay test helper does): choose a
   * method, give the missing payer details and the method's own data. Returns the order.
   * `checkout` is its id, or the checkout as the caller has just read it (outside any
   * transaction, as start would), so it is not read twice; the transaction that opens the order
   * reads it again either way.
   */
  async start(checkout: string | CheckoutPreference, input: StartPaymentInput): Promise<PaymentOrder> {
    const pref =
      typeof checkout === 'string'
        ? await getOwned(checkout, 'checkout preference', (id) => this.opening.uow.read.preferences.getById(id))
        : checkout;
    const who = { merchantId: pref.merchantId, mode: pref.mode };
    const now = this.opening.core.now(who);
    const status = effectiveStatus(pref, now);
    if (status !== 'OPEN') {
      throw new AppError('CONFLICT', [`checkout preference cannot be paid: status is ${status}, expected OPEN`]);
    }

    // 1. The method: the preference's selected one, or the payer's choice among the eligible.
    const messages: string[] = [];
    const methodId = pref.selectedPaymentMethodId ?? input.paymentMethodId ?? null;
    const [all, offer] = await Promise.all([
      this.opening.methods.all(),
      this.opening.availability.offerOf(pref.merchantId, pref.mode, input.merchantSettings),
    ]);
    const method = methodId ? all.find((m) => m.id === methodId) : undefined;
    let usable = false;
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
        this.opening.currencies,
      );
      // A method the checkout does not offer cannot be had by posting its id either.
      const unavailable = reason ? null : offer.whyNot(method);
      if (reason) {
        messages.push(`payment_method_id: the payment method ${reason}`);
      } else if (unavailable) {
        messages.push(
          `payment_method_id: the payment method ${method.id} (${methodLabel(method)}) is not available in ${pref.mode} mode: ${reasonClause(unavailable)}`,
        );
      } else {
        usable = true;
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

    // A merchant's own card processor takes the card in its own fields: the order opens without
    // card data, and whatever card data was posted is dropped here, unread. A subscription's
    // first payment there also keeps the card at the processor for the renewals.
    const viaConnector =
      usable && method?.type === 'CARD' && (await this.opening.cardConnected(pref.merchantId, pref.mode));

    // 3. The card, checked before anything is written (nothing of it is kept); not asked for a method refused above.
    if (usable && method?.type === 'CARD' && !viaConnector) {
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
      amountInMethodCurrency(
        method,
        { amountMinor: pref.amountMinor, currency: pref.currency },
        this.opening.currencies,
      ) === null
    ) {
      throw new AppError('WRONG_INPUT', ['payment_method_id: the payment method cannot take this currency']);
    }

    // 4. The order, OPENED, with its event; other open orders of this checkout are superseded.
    const orderId = newId();
    const isCard = method.type === 'CARD';
    // Read before the transaction (a read inside it would hold two pool connections); a card needs none.
    const settings = isCard
      ? null
      : await this.opening.settingsFor(pref.merchantId, pref.mode, input.merchantSettings ?? offer.settings);
    const expiresAt = isCard ? Math.min(pref.expiresAt, now + this.options.cardOrderTtlMs) : pref.expiresAt;
    // With an API Pix connection, the PSP makes the code (a charge under a txid fixed by the order).
    const pixConnection =
      method.type === 'PIX' ? await this.opening.pixCharges.connectionFor(pref.merchantId, pref.mode) : null;
    // Failed tries at the processor count against the same limit as declined orders.
    const failedTries = viaConnector ? await this.opening.failedCardTries(pref.id) : 0;
    const chargedBox = { value: 0n };
    const opened = await this.opening.uow.transaction(async (repos) => {
      const current = await repos.preferences.getById(pref.id);
      if (!current || effectiveStatus(current, now) !== 'OPEN') {
        throw new AppError('CONFLICT', [
          `checkout preference cannot be paid: status is ${current ? effectiveStatus(current, now) : 'unknown'}, expected OPEN`,
        ]);
      }
      if (isCard) {
        const declined = viaConnector ? failedTries : await repos.orders.countRejectedCardOrders(pref.id);
        if (declined >= this.options.maxCardDeclines) {
          throw new AppError('CONFLICT', [
            'checkout preference is locked after too many declined card attempts; ask the merchant for a new checkout',
          ]);
        }
        // The processor's intent is keyed by the order, so nothing is charged twice here: no
        // charging lock, which would hold the checkout while the payer types in the processor's fields.
        if (
          !viaConnector &&
          !(await repos.preferences.claimCharging(pref.id, orderId, now + this.options.cardLockMs, now))
        ) {
          throw new AppError('CONFLICT', ['a payment for this checkout is already being processed']);
        }
      }
      for (const other of await repos.orders.listOpenForPreference(pref.id)) {
        await this.opening.core.moveOrThrow(
          repos,
          other,
          'EXPIRED',
          { expiredAt: now, failureCode: 'superseded' },
          now,
          'superseded',
        );
      }
      // A SUBSCRIPTION checkout charges the sign-up fee plus the first period (only the fee during a trial).
      let recurrentPaymentId: string | null = null;
      let amountMinor = pref.amountMinor;
      let periodIndex: number | null = null;
      if (pref.type === 'SUBSCRIPTION') {
        const rec = await this.opening.core.effects.subscriptionFor(
          repos,
          current,
          method,
          payer,
          input.language ?? 'en',
          now,
        );
        recurrentPaymentId = rec.id;
        amountMinor = this.opening.core.effects.firstCharge(rec);
        periodIndex = rec.trialIntervalCount > 0 ? null : 0;
      }
      const charged =
        amountInMethodCurrency(method, { amountMinor, currency: pref.currency }, this.opening.currencies) ??
        amountMinor;
      if (viaConnector && charged === 0n) {
        // A processor's payment cannot be of nothing, and keeping a card without a payment (a
        // Stripe SetupIntent) is not built: refused before anything is kept (the transaction undoes the subscription).
        throw new AppError('WRONG_INPUT', [
          'payment_method_id: a card subscription that starts with a free trial and no sign-up fee cannot be paid through the merchant’s card processor yet; choose another payment method',
        ]);
      }
      chargedBox.value = charged;
      const order = await this.opening.core.open(repos, {
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
        expiresAt,
        now,
        periodIndex,
        periodAttempt: null,
        instructWith: charged > 0n && pixConnection === null ? settings : null,
      });
      if (pixConnection !== null && charged > 0n) {
        await this.opening.pixCharges.record(repos, order, pixConnection, now);
      }
      await repos.preferences.setLatestOrder(pref.id, orderId, now);
      await input.onOpened?.(repos, order);
      if (!isCard && charged === 0n) {
        // Nothing to pay now (a trial without sign-up fee): the method is recorded and the checkout done.
        return this.opening.core.close(repos, order, {}, now, null);
      }
      return order;
    });
    const charged = chargedBox.value;
    if (pixConnection !== null && charged > 0n && opened.status === 'OPENED') {
      return this.opening.pixCharges.create(opened);
    }
    if (!isCard || viaConnector || !input.card || opened.status !== 'OPENED') {
      return opened;
    }

    // 5. The card charge: outside any transaction, keyed by the order so a retry never charges twice.
    let result: CardChargeResult;
    try {
      result = await this.opening.providers.card.charge({
        orderId,
        merchantId: pref.merchantId,
        mode: pref.mode,
        method,
        charged: { amountMinor: charged, currency: method.currency },
        payer,
        expiresAt: new Date(expiresAt),
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
    return this.moves.applyCardResult(opened, result);
  }
}
