import type { PayerInput } from '../checkout-preferences/checkout-preference.rules.ts';
import type { Caller } from '../merchants/merchant.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { AppError } from '../shared/errors.ts';
import { getOwned } from '../shared/owned.ts';
import type { TestClocks } from '../shared/test-clocks.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { PaymentOrder } from './payment-order.ts';
import type { PaymentOrderMoveService } from './payment-order-move.service.ts';
import type { PaymentOrderQueryService } from './payment-order-query.service.ts';
import type { PaymentStartService } from './payment-start.service.ts';

export type PayOutcome = 'APPROVED' | 'REJECTED' | 'PENDING';

/** Test card numbers the pay helper types for the payer (see docs/test-cards.md). */
const APPROVING_CARD = '4242424242424242';
const DECLINING_CARD = '4000000000000002';

const TEST_PAYER: Required<Pick<PayerInput, 'email' | 'first_name' | 'last_name'>> = {
  email: 'payer@example.com',
  first_name: 'Test',
  last_name: 'Payer',
};

/**
 * The test-mode helpers of INTERFACE.md §9. Each goes through the same services as a real
 * payer or provider would (same validation, same events); nothing here writes state directly.
 */
export class TestHelperService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly orders: PaymentOrderQueryService,
    private readonly payments: PaymentStartService,
    private readonly moves: PaymentOrderMoveService,
    private readonly clocks: TestClocks,
    private readonly afterClockMove: (caller: Caller) => Promise<void>,
    /** Whether the merchant's cards in a mode go through its own processor (a Stripe test connection). */
    private readonly cardConnected: (merchantId: string, mode: Caller['mode']) => Promise<boolean> = async () => false,
  ) {}

  private assertTest(caller: Caller): void {
    if (caller.mode !== 'test') {
      throw new AppError('FORBIDDEN', ['test helpers can only be used with test-mode keys (ck_test_…)']);
    }
  }

  async pay(
    caller: Caller,
    preferenceId: string,
    input: { paymentMethodId?: string | null; outcome?: PayOutcome | null; payer?: PayerInput | null },
    onOpened?: (repos: Repositories, order: PaymentOrder) => Promise<void>,
  ): Promise<PaymentOrder> {
    this.assertTest(caller);
    const pref = await getOwned(preferenceId, 'checkout preference', (id) =>
      this.uow.read.preferences.get(caller.merchantId, caller.mode, id),
    );
    const methods = await this.orders.eligibleFor(pref);
    let methodId = input.paymentMethodId ?? null;
    if (!methodId && !pref.selectedPaymentMethodId) {
      methodId = methods[0]?.id ?? null;
    }
    const outcome = input.outcome ?? 'APPROVED';
    const method = methods.find((m) => m.id === (pref.selectedPaymentMethodId ?? methodId));
    if (method?.type === 'CARD' && (await this.cardConnected(caller.merchantId, caller.mode))) {
      // Cobro never holds the card data such a payment takes: the payer types it in Stripe's fields.
      throw new AppError('CONFLICT', [
        "card payments of this merchant's test mode go through its Stripe test account: pay on the hosted checkout with one of Stripe's test cards (docs/connectors/stripe.md, Test mode), or remove the test connection to use the built-in test processor",
      ]);
    }
    const order = await this.payments.start(pref, {
      paymentMethodId: methodId,
      payer: { ...TEST_PAYER, ...stripEmpty(input.payer) },
      card:
        method?.type === 'CARD'
          ? {
              number: outcome === 'REJECTED' ? DECLINING_CARD : APPROVING_CARD,
              expiry: '12/39',
              cvc: '123',
              holderName: 'Test Payer',
            }
          : null,
      saveCard: pref.type === 'SUBSCRIPTION',
      onOpened,
    });
    return this.finishPay(order, outcome);
  }

  /**
   * A pay whose first attempt died after opening `orderId` (the idempotency key's recovery
   * point): the steps left, from the order as it is now. The card charge is keyed by the order,
   * so an OPENED card order is the processor's to settle (card sync), never charged again here.
   */
  async resumePay(caller: Caller, orderId: string, outcome: PayOutcome | null): Promise<PaymentOrder> {
    this.assertTest(caller);
    return this.finishPay(await this.orders.get(caller, orderId), outcome ?? 'APPROVED');
  }

  private finishPay(order: PaymentOrder, outcome: PayOutcome): Promise<PaymentOrder> | PaymentOrder {
    if (order.paymentMethodType === 'CARD' || order.status !== 'OPENED' || outcome === 'PENDING') {
      return order;
    }
    return outcome === 'APPROVED'
      ? this.moves.confirm(order)
      : this.moves.reject(order, 'provider_rejected', 'the provider reported the payment as failed (test helper)');
  }

  async confirm(caller: Caller, orderId: string): Promise<PaymentOrder> {
    this.assertTest(caller);
    const order = await this.orders.get(caller, orderId);
    return this.moves.confirm(order);
  }

  async expire(caller: Caller, orderId: string): Promise<PaymentOrder> {
    this.assertTest(caller);
    return this.moves.expire(await this.orders.get(caller, orderId));
  }

  /** Moves this merchant's test clock forward and runs what fell due (expiries, renewals). */
  async advanceClock(caller: Caller, seconds: number): Promise<Date> {
    this.assertTest(caller);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 5 * 366 * 86_400) {
      throw new AppError('WRONG_INPUT', ['seconds must be an integer from 1 to 158112000 (five years)']);
    }
    const now = await this.clocks.advance(caller.merchantId, seconds * 1000);
    await this.afterClockMove(caller);
    return now;
  }
}

function stripEmpty(payer: PayerInput | null | undefined): PayerInput {
  const out: PayerInput = {};
  for (const [k, v] of Object.entries(payer ?? {})) {
    if (typeof v === 'string' && v.trim() !== '') {
      out[k as keyof PayerInput] = v;
    }
  }
  return out;
}
