import type { Caller } from '../merchants/merchant.ts';
import { AppError } from '../shared/errors.ts';
import { isWellFormedId } from '../shared/ids.ts';
import { getOwned } from '../shared/owned.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { assertRecurrentTransition, isTerminal } from './recurrent-payment.status.ts';
import type { RecurrentPayment, RecurrentPaymentFilter } from './recurrent-payment.ts';
import type { RenewalCharger } from './renewal-charger.ts';
import type { SubscriptionCore } from './subscription.core.ts';

/** Subscriptions as the merchant and the payer see them: read, cancelled, given a new card. */
export class SubscriptionService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly core: SubscriptionCore,
    /** Withdraws a cancelled subscription's open renewal. */
    private readonly renewals: RenewalCharger,
  ) {}

  /** How failed renewals are retried (SUBSCRIPTION_RETRY_DAYS, SUBSCRIPTION_CANCEL_AFTER_RETRIES), for the dashboard. */
  dunningPolicy(): { retryDays: readonly number[]; cancelWhenRetriesExhausted: boolean } {
    const { retryDays, cancelWhenRetriesExhausted } = this.core.options;
    return { retryDays, cancelWhenRetriesExhausted };
  }

  async get(caller: Caller, id: string): Promise<RecurrentPayment> {
    return getOwned(id, 'recurrent payment', (id) =>
      this.uow.read.recurrentPayments.get(caller.merchantId, caller.mode, id),
    );
  }

  list(caller: Caller, page: PageRequest, filter: RecurrentPaymentFilter): Promise<Page<RecurrentPayment>> {
    return this.uow.read.recurrentPayments.list(caller.merchantId, caller.mode, page, filter);
  }

  /** DELETE /v1/recurrent_payments/{id}: cancels (no further charges) and answers the record. */
  async cancel(caller: Caller, id: string, deletedBy: string | null): Promise<RecurrentPayment> {
    return this.cancelRecord(await this.get(caller, id), deletedBy ?? 'merchant');
  }

  /** Cancellation by the payer from the signed link in their e-mails. */
  async cancelByPayer(id: string): Promise<RecurrentPayment> {
    const rec = await getOwned(id, 'recurrent payment', (id) => this.uow.read.recurrentPayments.getById(id));
    return this.cancelRecord(rec, 'payer');
  }

  async getById(id: string): Promise<RecurrentPayment | undefined> {
    return isWellFormedId(id) ? this.uow.read.recurrentPayments.getById(id) : undefined;
  }

  /**
   * The payer saved another card: later renewals (and the retry of a failed one) charge it. A
   * subscription left UNPAID after its retries (SUBSCRIPTION_CANCEL_AFTER_RETRIES=false) has no
   * next date; the new card is then tried on the next billing run.
   */
  async replaceCard(
    id: string,
    token: string,
    shown: { brand: string; last4: string } | null = null,
  ): Promise<RecurrentPayment> {
    const rec = await getOwned(id, 'recurrent payment', (id) => this.uow.read.recurrentPayments.getById(id));
    if (rec.paymentMethodType !== 'CARD' || isTerminal(rec.status)) {
      throw new AppError('CONFLICT', ['this subscription cannot take a new card']);
    }
    const now = this.core.now(rec);
    return this.uow.transaction(async (repos) => {
      const current = await getOwned(id, 'recurrent payment', (id) => repos.recurrentPayments.getById(id));
      const stuck = current.status === 'UNPAID' && current.nextPaymentDate === null;
      return this.core.move(
        repos,
        current,
        current.status,
        {
          cardToken: token,
          cardBrand: shown?.brand ?? null,
          cardLast4: shown?.last4 ?? null,
          ...(stuck ? { nextPaymentDate: now } : {}),
        },
        now,
        'updated',
      );
    });
  }

  private async cancelRecord(rec: RecurrentPayment, deletedBy: string): Promise<RecurrentPayment> {
    if (rec.status === 'CANCELED') {
      return rec;
    }
    assertRecurrentTransition(rec.status, 'CANCELED', 'canceled');
    const now = this.core.now(rec);
    const canceled = await this.uow.transaction(async (repos) => {
      const current = (await repos.recurrentPayments.getById(rec.id)) ?? rec;
      return this.core.move(
        repos,
        current,
        'CANCELED',
        { canceledAt: now, deletedBy, nextPaymentDate: null },
        now,
        'canceled',
      );
    });
    // A renewal order left open (PIX, voucher…) must not be paid after the cancellation; a card
    // renewal records what became of its charge (see PaymentRenewalService.withdraw).
    for (const order of await this.uow.read.orders.openRenewals(rec.id)) {
      await this.renewals.withdraw(order).catch(() => undefined);
    }
    return canceled;
  }
}
