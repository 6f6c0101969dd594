import type { CheckoutPreference } from '../checkout-preferences/checkout-preference.ts';
import type { CurrencyTable } from '../currencies/currency.ts';
import type { Caller } from '../merchants/merchant.ts';
import type { StoredSettings } from '../merchants/merchant-settings.ts';
import { eligibleMethods } from '../payment-methods/eligibility.ts';
import type { MethodAvailabilityService } from '../payment-methods/method-availability.ts';
import type { PaymentMethodService } from '../payment-methods/payment-method.service.ts';
import type { PaymentMethod } from '../payment-methods/payment-method.ts';
import { isWellFormedId } from '../shared/ids.ts';
import { getOwned } from '../shared/owned.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { PaymentOrder, PaymentOrderFilter } from './payment-order.ts';

/** Reading payment orders (the merchant's, the hosted checkout's) and the methods a payer may choose. */
export class PaymentOrderQueryService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly currencies: CurrencyTable,
    private readonly methods: PaymentMethodService,
    private readonly availability: MethodAvailabilityService,
    /** Whether the merchant's own card processor (Stripe) takes its cards in `mode`. */
    private readonly cardConnected: (merchantId: string, mode: Caller['mode']) => Promise<boolean> = async () => false,
  ) {}

  async get(caller: Caller, id: string): Promise<PaymentOrder> {
    return getOwned(id, 'payment order', (id) => this.uow.read.orders.get(caller.merchantId, caller.mode, id));
  }

  list(caller: Caller, page: PageRequest, filter: PaymentOrderFilter): Promise<Page<PaymentOrder>> {
    return this.uow.read.orders.list(caller.merchantId, caller.mode, page, filter);
  }

  /** For the hosted checkout: an order of this preference (the pair of ids is the payer's capability). */
  async getForCheckout(preferenceId: string, orderId: string): Promise<PaymentOrder | undefined> {
    const order = isWellFormedId(orderId) ? await this.uow.read.orders.getById(orderId) : undefined;
    return order && order.checkoutPreferenceId === preferenceId ? order : undefined;
  }

  /**
   * The methods a payer may choose for this preference, in catalogue order: those that can take
   * its amount and that its merchant can offer in its mode (live: only what can settle).
   * `settings`: the merchant's stored settings when the caller has just read them.
   *
   * A processor's payment cannot be of nothing, so a card subscription that starts with a free
   * trial and no sign-up fee is not offered Card when the merchant's processor takes the cards
   * (keeping a card without a payment, a Stripe SetupIntent, is not built; PaymentStartService
   * refuses it too).
   */
  async eligibleFor(pref: CheckoutPreference, settings?: StoredSettings): Promise<PaymentMethod[]> {
    const [all, offer] = await Promise.all([
      this.methods.all(),
      this.availability.offerOf(pref.merchantId, pref.mode, settings),
    ]);
    const query = {
      amount: { amountMinor: pref.amountMinor, currency: pref.currency },
      types: pref.paymentMethodTypes,
      recurrent: pref.type === 'SUBSCRIPTION',
    };
    const methods = (
      pref.selectedPaymentMethodId ? all.filter((m) => m.id === pref.selectedPaymentMethodId) : all
    ).filter((m) => offer.whyNot(m) === null);
    const eligible = eligibleMethods(methods, query, this.currencies);
    return (await this.nothingToChargeByProcessor(pref, eligible))
      ? eligible.filter((m) => m.type !== 'CARD')
      : eligible;
  }

  private async nothingToChargeByProcessor(pref: CheckoutPreference, methods: PaymentMethod[]): Promise<boolean> {
    if (pref.type !== 'SUBSCRIPTION' || !pref.paymentLinkId || !methods.some((m) => m.type === 'CARD')) {
      return false;
    }
    const link = await this.uow.read.paymentLinks.getById(pref.paymentLinkId);
    return (
      link !== undefined &&
      link.trialIntervalCount > 0 &&
      link.signupFeeMinor === 0n &&
      (await this.cardConnected(pref.merchantId, pref.mode))
    );
  }
}
