import Stripe from 'stripe';
import type {
  CardConnector,
  ChargeView,
  ConnectorEvent,
  CreateIntentInput,
  DisputeView,
  IntentView,
  RefundView,
  SavedCardChargeInput,
} from '../../../domain/connectors/card-connector.ts';
import { ConnectorError } from '../../../domain/connectors/card-connector.ts';
import type { Mode } from '../../../domain/merchants/merchant.ts';
import type { Money } from '../../../domain/shared/money.ts';
import type { StripeClientOptions } from './stripe.client.ts';
import { call, connectorError, STRIPE_API_VERSION, stripeClient } from './stripe.client.ts';
import { fromStripeAmount, intentOutcome, refundOutcome, STRIPE_EVENTS, toStripeAmount } from './stripe.mapping.ts';

/** Seconds an event's signature stays good (Stripe's own default). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const SECRET_KEY = /^(sk|rk)_(live|test)_[A-Za-z0-9]{8,255}$/;
const PUBLISHABLE_KEY = /^pk_(live|test)_[A-Za-z0-9]{8,255}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{8,255}$/;
const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9]{8,255}$/;

/** The id an expandable member holds, whether it came as an id or as the object. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string') {
    return value;
  }
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? id : null;
}

/**
 * The Stripe card connector: the merchant's own Stripe account, through the official `stripe`
 * package, behind the CardConnector port. It translates and keeps nothing.
 */
export class StripeConnector implements CardConnector {
  readonly provider = 'stripe' as const;

  constructor(
    private readonly options: StripeClientOptions,
    /** Decimals of a currency in Cobro's table; throws for one it does not have. */
    private readonly decimalsOf: (code: string) => number,
  ) {}

  keysMode(secretKey: string, publishableKey: string): { ok: true; mode: Mode } | { ok: false; message: string } {
    const secret = SECRET_KEY.exec(secretKey);
    if (!secret) {
      return {
        ok: false,
        message:
          'secret key: must be a Stripe secret or restricted key (sk_live_, sk_test_, rk_live_ or rk_test_ and letters or digits)',
      };
    }
    const publishable = PUBLISHABLE_KEY.exec(publishableKey);
    if (!publishable) {
      return {
        ok: false,
        message: 'publishable key: must be a Stripe publishable key (pk_live_ or pk_test_ and letters or digits)',
      };
    }
    if (secret[2] !== publishable[1]) {
      return {
        ok: false,
        message: `the keys are of two modes: the secret key is a ${secret[2]} key, the publishable key a ${publishable[1]} key`,
      };
    }
    return { ok: true, mode: secret[2] === 'live' ? 'live' : 'test' };
  }

  isWebhookSecret(secret: string): boolean {
    return WEBHOOK_SECRET.test(secret);
  }

  async account(secretKey: string): Promise<{ id: string; name: string | null }> {
    const account = await call(() => stripeClient(secretKey, this.options).accounts.retrieve(null));
    return {
      id: account.id,
      name: account.settings?.dashboard?.display_name ?? account.business_profile?.name ?? null,
    };
  }

  async createWebhookEndpoint(
    secretKey: string,
    input: { url: string; idempotencyKey: string; merchantId: string },
  ): Promise<{ id: string; secret: string }> {
    const endpoint = await call(() =>
      stripeClient(secretKey, this.options).webhookEndpoints.create(
        {
          url: input.url,
          enabled_events: [...STRIPE_EVENTS],
          description: 'Cobro: card payments of this account',
          api_version: STRIPE_API_VERSION,
          metadata: { cobro_merchant_id: input.merchantId },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    if (!endpoint.secret) {
      throw new ConnectorError('REJECTED', 'Stripe created the webhook endpoint without giving its signing secret');
    }
    return { id: endpoint.id, secret: endpoint.secret };
  }

  async deleteWebhookEndpoint(secretKey: string, endpointId: string): Promise<void> {
    try {
      await call(() => stripeClient(secretKey, this.options).webhookEndpoints.del(endpointId));
    } catch (error) {
      if (!(error instanceof ConnectorError && error.kind === 'NOT_FOUND')) {
        throw error;
      }
    }
  }

  verifyEvent(rawBody: Buffer, signature: string | undefined, secret: string): ConnectorEvent | null {
    if (!signature || secret === '') {
      return null;
    }
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
    } catch {
      return null;
    }
    const object = event.data.object as unknown as Record<string, unknown>;
    const isIntent = object.object === 'payment_intent';
    const intentId = isIntent ? String(object.id) : idOf(object.payment_intent);
    return {
      id: event.id,
      type: event.type,
      livemode: event.livemode,
      intent: isIntent ? this.intentView(object as unknown as Stripe.PaymentIntent) : null,
      intentId,
      charge: object.object === 'charge' ? this.chargeView(object as unknown as Stripe.Charge) : null,
      refund: object.object === 'refund' ? refundView(object as unknown as Stripe.Refund) : null,
      dispute: object.object === 'dispute' ? this.disputeView(object as unknown as Stripe.Dispute) : null,
    };
  }

  async createIntent(secretKey: string, input: CreateIntentInput): Promise<IntentView> {
    const amount = toStripeAmount(
      input.amount.amountMinor,
      input.amount.currency,
      this.decimalsOf(input.amount.currency),
    );
    if (amount === null) {
      throw new ConnectorError(
        'REJECTED',
        `${input.amount.amountMinor} minor units of ${input.amount.currency} cannot be expressed in Stripe's units`,
      );
    }
    const metadata: Record<string, string> = { cobro_payment_order_id: input.orderId };
    if (input.preferenceId !== null) {
      metadata.cobro_checkout_preference_id = input.preferenceId;
    }
    // `payment_method_types` is the name STRIPE_API_VERSION gives it (later versions call it
    // allowed_payment_method_types, which is all the package's types know).
    const params: Stripe.PaymentIntentCreateParams & { payment_method_types: string[] } = {
      amount,
      currency: input.amount.currency.toLowerCase(),
      payment_method_types: ['card'],
      description: input.description.slice(0, 1000),
      metadata,
      ...(input.saveCardFor ? { customer: input.saveCardFor.customerId, setup_future_usage: 'off_session' } : {}),
    };
    const intent = await call(() =>
      stripeClient(secretKey, this.options).paymentIntents.create(params, {
        // Fixed by the order: whatever the retries and crashes, one intent per order.
        idempotencyKey: `cobro-pi-${input.orderId}`,
      }),
    );
    return this.intentView(intent);
  }

  async chargeSavedCard(secretKey: string, input: SavedCardChargeInput): Promise<IntentView> {
    const amount = this.stripeAmount(input.amount);
    const params: Stripe.PaymentIntentCreateParams & { payment_method_types: string[] } = {
      amount,
      currency: input.amount.currency.toLowerCase(),
      payment_method_types: ['card'],
      description: input.description.slice(0, 1000),
      metadata: this.metadataOf(input),
      customer: input.customerId,
      payment_method: input.paymentMethodId,
      off_session: true,
      confirm: true,
    };
    const client = stripeClient(secretKey, this.options);
    try {
      return this.intentView(await client.paymentIntents.create(params, { idempotencyKey: input.idempotencyKey }));
    } catch (error) {
      // A decline (402) carries the intent it left behind: a result, not a failure of the call.
      if (error instanceof Stripe.errors.StripeError && error.payment_intent?.id) {
        return this.intentView(error.payment_intent);
      }
      if (!(error instanceof Stripe.errors.StripeAPIError && (error.statusCode ?? 0) >= 500)) {
        throw connectorError(error);
      }
    }
    // Stripe answered a 5xx, which it keeps under the key and replays to every retry: the try is
    // over. Whether it made an intent before failing is asked of the customer's intents.
    const made = await this.findCustomerIntent(secretKey, input.customerId, input.orderId);
    if (made) {
      return made;
    }
    throw new ConnectorError('REJECTED', 'Stripe answered an error to the charge and made no payment for it');
  }

  async findCustomerIntent(secretKey: string, customerId: string, orderId: string): Promise<IntentView | null> {
    const listed = await call(() =>
      stripeClient(secretKey, this.options).paymentIntents.list({ customer: customerId, limit: 100 }),
    );
    const made = listed.data.find((intent) => intent.metadata?.cobro_payment_order_id === orderId);
    return made ? this.intentView(made) : null;
  }

  async retrieveIntentWithCard(secretKey: string, intentId: string): Promise<IntentView> {
    const intent = await call(() =>
      stripeClient(secretKey, this.options).paymentIntents.retrieve(intentId, { expand: ['payment_method'] }),
    );
    return this.intentView(intent);
  }

  async retrieveIntent(secretKey: string, intentId: string): Promise<IntentView> {
    const intent = await call(() => stripeClient(secretKey, this.options).paymentIntents.retrieve(intentId));
    return this.intentView(intent);
  }

  async cancelIntent(secretKey: string, intentId: string): Promise<IntentView> {
    const intent = await call(() =>
      stripeClient(secretKey, this.options).paymentIntents.cancel(intentId, { cancellation_reason: 'abandoned' }),
    );
    return this.intentView(intent);
  }

  async createRefund(secretKey: string, input: { orderId: string; intentId: string }): Promise<RefundView> {
    const refund = await call(() =>
      stripeClient(secretKey, this.options).refunds.create(
        { payment_intent: input.intentId, metadata: { cobro_payment_order_id: input.orderId } },
        { idempotencyKey: `cobro-re-${input.orderId}` },
      ),
    );
    return refundView(refund);
  }

  async retrieveRefund(secretKey: string, refundId: string): Promise<RefundView> {
    return refundView(await call(() => stripeClient(secretKey, this.options).refunds.retrieve(refundId)));
  }

  isPaymentRef(ref: string): boolean {
    return PAYMENT_INTENT_ID.test(ref);
  }

  async createCustomer(
    secretKey: string,
    input: { subscriptionId: string; email: string | null; name: string | null },
  ): Promise<{ id: string }> {
    const customer = await call(() =>
      stripeClient(secretKey, this.options).customers.create(
        {
          ...(input.email ? { email: input.email } : {}),
          ...(input.name ? { name: input.name } : {}),
          metadata: { cobro_recurrent_payment_id: input.subscriptionId },
        },
        { idempotencyKey: `cobro-cus-${input.subscriptionId}` },
      ),
    );
    return { id: customer.id };
  }

  private stripeAmount(money: Money): number {
    const amount = toStripeAmount(money.amountMinor, money.currency, this.decimalsOf(money.currency));
    if (amount === null) {
      throw new ConnectorError(
        'REJECTED',
        `${money.amountMinor} minor units of ${money.currency} cannot be expressed in Stripe's units`,
      );
    }
    return amount;
  }

  private metadataOf(input: { orderId: string; preferenceId: string | null }): Record<string, string> {
    const metadata: Record<string, string> = { cobro_payment_order_id: input.orderId };
    if (input.preferenceId !== null) {
      metadata.cobro_checkout_preference_id = input.preferenceId;
    }
    return metadata;
  }

  private money(amount: number | null | undefined, currency: string | null | undefined): Money | null {
    // An event's object may leave members out: without a currency there is no amount to read.
    if (typeof currency !== 'string') {
      return null;
    }
    const code = currency.toUpperCase();
    let decimals: number;
    try {
      decimals = this.decimalsOf(code);
    } catch {
      return null;
    }
    const minor = fromStripeAmount(amount ?? 0, code, decimals);
    return minor === null ? null : { amountMinor: minor, currency: code };
  }

  private chargeView(charge: Stripe.Charge): ChargeView {
    return {
      id: charge.id,
      intentId: idOf(charge.payment_intent),
      fullyRefunded: charge.refunded === true,
      amount: this.money(charge.amount, charge.currency),
      refunded: this.money(charge.amount_refunded, charge.currency),
      // Listed only when the event carries them (API versions since 2022-11-15 leave them out).
      refundIds: (charge.refunds?.data ?? []).map((r) => r.id),
    };
  }

  private disputeView(dispute: Stripe.Dispute): DisputeView {
    const due = dispute.evidence_details?.due_by;
    return {
      id: dispute.id,
      intentId: idOf(dispute.payment_intent),
      reason: dispute.reason ?? 'unknown',
      status: dispute.status ?? 'unknown',
      amount: this.money(dispute.amount, dispute.currency),
      evidenceDueBy: typeof due === 'number' ? due * 1000 : null,
    };
  }

  private intentView(intent: Stripe.PaymentIntent): IntentView {
    const error = intent.last_payment_error;
    const pm = intent.payment_method;
    return {
      id: intent.id,
      status: intent.status,
      outcome: intentOutcome(intent.status),
      amount: this.money(intent.amount, intent.currency),
      received: this.money(intent.amount_received, intent.currency),
      clientSecret: intent.client_secret ?? null,
      orderId: intent.metadata?.cobro_payment_order_id ?? null,
      preferenceId: intent.metadata?.cobro_checkout_preference_id ?? null,
      failure: error
        ? {
            code: error.decline_code ?? error.code ?? 'card_declined',
            message: error.message ?? 'The card was declined.',
          }
        : null,
      paymentMethodId: typeof pm === 'string' ? pm : (pm?.id ?? null),
      customerId: typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null),
      card: typeof pm === 'object' && pm?.card ? { brand: pm.card.brand, last4: pm.card.last4 } : null,
    };
  }
}

function refundView(refund: Stripe.Refund): RefundView {
  return {
    id: refund.id,
    status: refund.status ?? 'pending',
    outcome: refundOutcome(refund.status),
    intentId: idOf(refund.payment_intent),
  };
}
