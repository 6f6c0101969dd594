import type { Mode } from '../merchants/merchant.ts';
import type { ChainPayment, ChainWatch, ChainWatcher } from '../payment-methods/payment-provider.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { ChainProgress, PaymentOrder } from './payment-order.ts';
import type { PaymentOrderMoveService } from './payment-order-move.service.ts';

export type ChainObserverOptions = {
  now: () => number;
  /**
   * How long an expired order's address is still watched, so that a payment arriving after the
   * expiry is recorded (PAID_LATE) for the merchant to handle, as BTCPay Server keeps watching an
   * expired invoice for a while.
   */
  lateWindowMs: number;
  /** Open orders looked at per run at most (oldest first), and as many recently expired ones. */
  limit: number;
  /** A chain source failed: told once per mode, network and run. */
  onChainError?: (mode: Mode, network: string, error: unknown) => void;
};

/**
 * Settles crypto orders from what their chain shows: test mode's simulated chain, or live mode's
 * sources. Each run reads where the chains stand, then lists the watched orders (that order
 * matters: see ChainWatcher.refresh), asks each network once for all its addresses, records
 * the progress a payer sees, and confirms what has its required confirmations. A source that
 * fails skips its network this run; the others go on.
 */
export class ChainObserver {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly chains: Record<Mode, ChainWatcher>,
    /** Records the amount received (confirm), with its anomaly, the order's close and what that sets off. */
    private readonly moves: PaymentOrderMoveService,
    private readonly options: ChainObserverOptions,
  ) {}

  async observe(mode: Mode): Promise<void> {
    const chain = this.chains[mode];
    await chain.refresh?.();
    const orders = await this.uow.read.orders.listWatchedCrypto(
      mode,
      this.options.now() - this.options.lateWindowMs,
      this.options.limit,
    );
    const byNetwork = new Map<string, { order: PaymentOrder; watch: ChainWatch; required: number }[]>(
      (chain.networks?.() ?? []).map((network) => [network, []]),
    );
    for (const order of orders) {
      const ins = order.instructions;
      if (ins?.type !== 'CRYPTO_ONCHAIN') {
        continue;
      }
      const list = byNetwork.get(ins.network) ?? [];
      list.push({
        order,
        watch: { address: ins.address, currency: ins.currency },
        required: ins.required_confirmations,
      });
      byNetwork.set(ins.network, list);
    }
    for (const [network, watched] of byNetwork) {
      let received: Map<string, ChainPayment[]>;
      try {
        received = await chain.received(
          network,
          watched.map((w) => w.watch),
        );
      } catch (error) {
        this.options.onChainError?.(mode, network, error);
        continue;
      }
      for (const { order, watch, required } of watched) {
        await this.settle(order, received.get(watch.address) ?? [], required);
      }
    }
  }

  private async settle(order: PaymentOrder, payments: ChainPayment[], required: number): Promise<void> {
    const confirmed = payments
      .filter((p) => p.confirmations >= required)
      .reduce((sum, p) => sum + p.amountBaseUnits, 0n);
    const progress = progressOf(payments);
    if (order.status === 'OPENED' && !sameProgress(progress, order.chainProgress)) {
      // Only what the payer's page shows: no status change, so no event and no sequence bump.
      // (Null again when a reorg took back all that was seen.)
      await this.uow.transaction((repos) =>
        repos.orders.update(order.id, 'OPENED', { chainProgress: progress }, this.options.now()),
      );
    }
    if (confirmed === 0n || confirmed === order.receivedAmountMinor) {
      return;
    }
    await this.moves.confirm(order, confirmed).catch((error: unknown) => {
      // Moved meanwhile by another worker, or expired and recorded as paid late: both final here.
      if (!(error instanceof AppError)) {
        throw error;
      }
    });
  }
}

/** All that was seen, and the confirmations of the least confirmed payment (what the payer waits for). */
function progressOf(payments: ChainPayment[]): ChainProgress | null {
  if (payments.length === 0) {
    return null;
  }
  return {
    seenMinor: payments.reduce((sum, p) => sum + p.amountBaseUnits, 0n),
    confirmations: Math.min(...payments.map((p) => p.confirmations)),
  };
}

function sameProgress(a: ChainProgress | null, b: ChainProgress | null): boolean {
  if (a === null || b === null) {
    return a === b;
  }
  return a.seenMinor === b.seenMinor && a.confirmations === b.confirmations;
}
