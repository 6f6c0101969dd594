import type { CurrencyTable } from '../currencies/currency.ts';
import type { Caller } from '../merchants/merchant.ts';
import type { Repositories } from '../repositories.ts';
import { parseBoundedAmount } from '../shared/amount-rules.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, notFound } from '../shared/errors.ts';
import { isWellFormedId, newId } from '../shared/ids.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { IntervalType, PaymentLink, PaymentLinkStatus } from './payment-link.ts';

export type CreatePaymentLinkInput = {
  title: string;
  amount: number;
  currency: string;
  intervalType: IntervalType;
  intervalCount: number | null;
  trialIntervalType: IntervalType | null;
  trialIntervalCount: number | null;
  signupFeeAmount: number | null;
  externalId: string | null;
};

/** Called inside the creating transaction (idempotency records are stored with the object). */
export type InTransaction<T> = (repos: Repositories, created: T) => Promise<void>;

export class PaymentLinkService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: (caller: Caller) => Clock,
    private readonly currencies: CurrencyTable,
  ) {}

  async create(caller: Caller, input: CreatePaymentLinkInput, also?: InTransaction<PaymentLink>): Promise<PaymentLink> {
    const messages: string[] = [];
    const title = input.title.trim();
    if (title.length === 0) {
      messages.push('title must not be empty');
    }
    if (!this.currencies.get(input.currency)) {
      messages.push(`currency must be one of the supported currencies (GET /v1/currencies), got ${input.currency}`);
    }
    const amount = parseBoundedAmount('amount', input.amount, input.currency, this.currencies);
    if (!amount.ok) {
      messages.push(...amount.messages);
    }
    let signupFeeMinor = 0n;
    if (input.signupFeeAmount !== null && input.signupFeeAmount !== 0) {
      const fee = parseBoundedAmount('signup_fee_amount', input.signupFeeAmount, input.currency, this.currencies, {
        allowZero: true,
      });
      if (fee.ok) {
        signupFeeMinor = fee.minor;
      } else {
        messages.push(...fee.messages);
      }
    }
    if ((input.trialIntervalType === null) !== (input.trialIntervalCount === null || input.trialIntervalCount === 0)) {
      messages.push('trial_interval_type and trial_interval_count must be given together');
    }
    if (messages.length > 0) {
      throw new AppError('WRONG_INPUT', messages);
    }
    const now = this.clock(caller).now().getTime();
    const link: PaymentLink = {
      id: newId(),
      merchantId: caller.merchantId,
      mode: caller.mode,
      title,
      amountMinor: amount.ok ? amount.minor : 0n,
      currency: input.currency,
      intervalType: input.intervalType,
      intervalCount: input.intervalCount,
      trialIntervalType: input.trialIntervalCount ? input.trialIntervalType : null,
      trialIntervalCount: input.trialIntervalCount ?? 0,
      signupFeeMinor,
      externalId: input.externalId,
      status: 'ACTIVE',
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await this.uow.transaction(async (repos) => {
      await repos.paymentLinks.insert(link);
      await also?.(repos, link);
    });
    return link;
  }

  async get(caller: Caller, id: string): Promise<PaymentLink> {
    const link = isWellFormedId(id)
      ? await this.uow.read.paymentLinks.get(caller.merchantId, caller.mode, id)
      : undefined;
    if (!link) {
      throw notFound('payment link');
    }
    return link;
  }

  list(caller: Caller, page: PageRequest, filter: { status?: PaymentLinkStatus }): Promise<Page<PaymentLink>> {
    return this.uow.read.paymentLinks.list(caller.merchantId, caller.mode, page, filter);
  }

  /** Archived definitions stay readable (existing subscribers keep them) but start no new subscription. */
  async archive(caller: Caller, id: string): Promise<PaymentLink> {
    if (!isWellFormedId(id)) {
      throw notFound('payment link');
    }
    return this.uow.transaction(async (repos) => {
      const link = await repos.paymentLinks.get(caller.merchantId, caller.mode, id);
      if (!link) {
        throw notFound('payment link');
      }
      if (link.status === 'ARCHIVED') {
        return link;
      }
      const now = this.clock(caller).now().getTime();
      await repos.paymentLinks.setStatus(caller.merchantId, caller.mode, id, 'ARCHIVED', now);
      return { ...link, status: 'ARCHIVED', updatedAt: now };
    });
  }
}
