import type { CurrencyTable } from '../currencies/currency.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { StoredSettings } from '../merchants/merchant-settings.ts';
import type { MethodAvailabilityService } from '../payment-methods/method-availability.ts';
import type { PaymentMethodService } from '../payment-methods/payment-method.service.ts';
import type { CardPaymentProvider, MerchantPaymentSettings } from '../payment-methods/payment-provider.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { PaymentOrderCore } from './payment-order.core.ts';
import type { PixCharges } from './pix-charges.port.ts';

/**
 * What opening a payment order needs, whether a payer starts it on the checkout
 * (PaymentStartService) or a subscription's renewal does (PaymentRenewalService).
 */
export type OrderOpening = {
  uow: UnitOfWork;
  core: PaymentOrderCore;
  currencies: CurrencyTable;
  methods: PaymentMethodService;
  /** Whether the merchant can offer the method in the order's mode (live mode: only what can settle). */
  availability: MethodAvailabilityService;
  providers: { card: CardPaymentProvider };
  /**
   * Whether the merchant's card payments in `mode` go through its own processor (a card
   * connection): the order then opens without card data, and the processor's card fields take it.
   */
  cardConnected: (merchantId: string, mode: Mode) => Promise<boolean>;
  /** Failed card tries on a checkout whose cards go through a connection (CardCheckoutService.failedTries). */
  failedCardTries: (preferenceId: string) => Promise<number>;
  /** PIX orders of merchants with an API Pix connection are charges at their PSP. */
  pixCharges: PixCharges;
  /**
   * The settings a push method's instructions are made with: the stored ones (`stored`, when the
   * caller has just read them), and in test mode the test defaults for what is not stored.
   */
  settingsFor: (merchantId: string, mode: Mode, stored?: StoredSettings | null) => Promise<MerchantPaymentSettings>;
};
