import type { CurrencyTable } from '../currencies/currency.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { PaymentMethodService } from '../payment-methods/payment-method.service.ts';
import type { CardPaymentProvider, MerchantPaymentSettings } from '../payment-methods/payment-provider.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { PaymentOrderCore } from './payment-order.core.ts';

/**
 * What opening a payment order needs, whether a payer starts it on the checkout
 * (PaymentStartService) or a subscription's renewal does (PaymentRenewalService).
 */
export type OrderOpening = {
  uow: UnitOfWork;
  core: PaymentOrderCore;
  currencies: CurrencyTable;
  methods: PaymentMethodService;
  providers: { card: CardPaymentProvider };
  settingsFor: (merchantId: string, mode: Mode) => Promise<MerchantPaymentSettings>;
};
