import type { Payer } from '../checkout-preferences/checkout-preference.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { PaymentMethodType } from '../payment-methods/payment-method.ts';
import type { PaymentAnomaly, PaymentOrderStatus } from './payment-order.status.ts';

/** What the payer needs to complete an asynchronous payment, per method (fed to the checkout panels). */
export type PaymentInstructions =
  | { type: 'CARD'; brand: string; last4: string; exp_month: number; exp_year: number }
  | { type: 'PIX'; pix_payload: string; txid: string; expires_at: string }
  | {
      type: 'CRYPTO_ONCHAIN';
      address: string;
      network: string;
      currency: string;
      amount: string;
      uri: string;
      required_confirmations: number;
      derivation_index: number;
    }
  | {
      type: 'BANK_TRANSFER';
      reference: string;
      bank_name: string;
      account_holder: string;
      account_number: string;
      routing: string;
      amount: string;
      currency: string;
    }
  | {
      type: 'CASH';
      reference: string;
      barcode: string;
      amount: string;
      currency: string;
      due_date: string;
      provider: string;
    };

export type PaymentOrder = {
  id: string;
  merchantId: string;
  mode: Mode;
  checkoutPreferenceId: string | null;
  recurrentPaymentId: string | null;
  /** In the preference's currency. */
  amountMinor: bigint;
  currency: string;
  /** What the method charges, in its own currency (differs for crypto). */
  chargedAmountMinor: bigint;
  chargedCurrency: string;
  /** What the provider reported receiving (push methods), in the charged currency. */
  receivedAmountMinor: bigint | null;
  status: PaymentOrderStatus;
  anomaly: PaymentAnomaly;
  title: string;
  origin: string;
  externalId: string | null;
  paymentMethodId: string;
  paymentMethodType: PaymentMethodType;
  payer: Payer;
  instructions: PaymentInstructions | null;
  providerRef: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  /** Increases with every change, so webhook receivers can drop stale events. */
  sequence: number;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
  expiredAt: number | null;
  closedAt: number | null;
  refundedAt: number | null;
  /** Which period of its subscription this order pays (null outside subscriptions or for a trial's set-up). */
  periodIndex: number | null;
  /** For renewal charges: the try within the period (1, then retries); null for the checkout's own order. */
  periodAttempt: number | null;
  /** Crypto: what the chain watcher has seen so far, for the payer's page (null before anything). */
  chainProgress: ChainProgress | null;
};

/** The payments seen to a crypto order's address, in the charged currency, and the confirmations of the least confirmed. */
export type ChainProgress = { seenMinor: bigint; confirmations: number };

export type PaymentOrderFilter = {
  checkoutPreferenceId?: string;
  recurrentPaymentId?: string;
  externalId?: string;
  status?: PaymentOrderStatus;
  createdGte?: number;
  createdLt?: number;
  /** The method type the payer chose (dashboard filter; the API does not offer it). */
  paymentMethodType?: PaymentMethodType;
  /** The payer's e-mail, compared without regard to case (dashboard filter). */
  payerEmail?: string;
};

/** The fields a transition may change besides status. */
export type PaymentOrderChanges = Partial<
  Pick<
    PaymentOrder,
    | 'anomaly'
    | 'receivedAmountMinor'
    | 'instructions'
    | 'providerRef'
    | 'failureCode'
    | 'failureMessage'
    | 'expiredAt'
    | 'closedAt'
    | 'refundedAt'
    | 'chainProgress'
  >
>;
