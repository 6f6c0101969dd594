import type { Mode } from '../merchants/merchant.ts';
import type { CardChargeResult, CardPaymentProvider } from '../payment-methods/payment-provider.ts';
import { AppError } from '../shared/errors.ts';
import type { TestClocks } from '../shared/test-clocks.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { PaymentOrderCore, PaymentOrderOptions } from './payment-order.core.ts';
import type { PaymentOrderMoveService } from './payment-order-move.service.ts';

/** The payment orders' sweeps, run by the payments job: due expiries, card charges left unsettled. */
export class PaymentOrderSweepService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clocks: TestClocks,
    private readonly core: PaymentOrderCore,
    private readonly providers: { card: CardPaymentProvider },
    private readonly options: Pick<PaymentOrderOptions, 'cardLockMs'>,
    private readonly moves: PaymentOrderMoveService,
    /**
     * Whether the merchant's cards in a mode go through its own processor: those orders are the
     * connector's to settle (CardCheckoutService.sync), never asked of the built-in processor.
     */
    private readonly connectorServes: (merchantId: string, mode: Mode) => Promise<boolean> = async () => false,
  ) {}

  /** Expires open orders and preferences whose time has passed, each by its merchant's clock. */
  async expireDue(): Promise<number> {
    const base = this.clocks.system.now().getTime();
    const advanced = this.clocks.advanced();
    const horizon = base + Math.max(0, ...advanced.map((a) => a.offsetMs));
    let count = 0;
    for (const order of await this.uow.read.orders.listDueForExpiry(horizon, 500)) {
      if (order.expiresAt <= this.core.now(order)) {
        try {
          await this.moves.expire(order);
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
    const served = new Map<string, boolean>();
    for (const order of await this.uow.read.orders.listOpenedCardOrders(200)) {
      const key = `${order.merchantId}:${order.mode}`;
      if (!served.has(key)) {
        served.set(key, await this.connectorServes(order.merchantId, order.mode));
      }
      if (served.get(key) && order.recurrentPaymentId === null) {
        continue;
      }
      let result: CardChargeResult | null;
      if (order.providerRef) {
        result = await this.providers.card.sync(order.providerRef);
      } else if (order.periodAttempt === null && order.createdAt <= this.core.now(order) - this.options.cardLockMs) {
        // (A renewal is not recovered here: billing charges it again under the same key.)
        result = await this.providers.card.recover(order.id, order.mode).catch(() => null);
      } else {
        continue;
      }
      // A recovered charge is recorded even when still PENDING (it then has its reference).
      if (result && (result.status !== 'PENDING' || !order.providerRef)) {
        // Another process may settle it first: then this move finds the order changed, and that is fine.
        await this.moves.applyCardResult(order, result).catch(() => undefined);
      }
    }
  }
}
