import Stripe from 'stripe';
import type {
  CardConnector,
  ConnectorEvent,
  CreateIntentInput,
  IntentView,
  RefundView,
} from '../../../domain/connectors/card-connector.ts';
import { ConnectorError } from '../../../domain/connectors/card-connector.ts';
import type { Mode } from '../../../domain/merchants/merchant.ts';
import type { Money } from '../../../domain/shared/money.ts';
import type { StripeClientOptions } from './stripe.client.ts';
import { call, STRIPE_API_VERSION, stripeClient } from './stripe.client.ts';
import { fromStripeAmount, intentOutcome, refundOutcome, STRIPE_EVENTS, toStripeAmount } from './stripe.mapping.ts';

/** Seconds an event's signature stays good (Stripe's own default). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const SECRET_KEY = /^(sk|rk)_(live|test)_[A-Za-z0-9]{8,255}$/;
const PUBLISHABLE_KEY = /^pk_(live|test)_[A-Za-z0-9]{8,255}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{8,255}$/;

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
    const intentId = isIntent
      ? String(object.id)
      : typeof object.payment_intent === 'string'
        ? object.payment_intent
        : null;
    return {
      id: event.id,
      type: event.type,
      livemode: event.livemode,
      intent: isIntent ? this.intentView(object as unknown as Stripe.PaymentIntent) : null,
      intentId,
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
    return {
      id: refund.id,
      status: refund.status ?? 'pending',
      outcome: refundOutcome(refund.status),
      intentId: typeof refund.payment_intent === 'string' ? refund.payment_intent : (refund.payment_intent?.id ?? null),
    };
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

  private money(amount: number | null | undefined, currency: string): Money | null {
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

  private intentView(intent: Stripe.PaymentIntent): IntentView {
    const error = intent.last_payment_error;
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
    };
  }
}
