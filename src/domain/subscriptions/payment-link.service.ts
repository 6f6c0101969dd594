import type { CurrencyTable } from '../currencies/currency.ts';
import type { Caller } from '../merchants/merchant.ts';
import type { Repositories } from '../repositories/repositories.ts';
import { parseBoundedAmount } from '../shared/amount-rules.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { isWellFormedId, newId } from '../shared/ids.ts';
import { fromMinorUnits } from '../shared/money.ts';
import { getOwned } from '../shared/owned.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { IntervalType, PaymentLink, PaymentLinkStatus, PlanTerms } from './payment-link.ts';

function sameTerms(a: PlanTerms, b: PlanTerms): boolean {
  return (
    a.title === b.title &&
    a.amountMinor === b.amountMinor &&
    a.currency === b.currency &&
    a.intervalType === b.intervalType &&
    a.intervalCount === b.intervalCount &&
    a.trialIntervalType === b.trialIntervalType &&
    a.trialIntervalCount === b.trialIntervalCount &&
    a.signupFeeMinor === b.signupFeeMinor
  );
}

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

/** An edit of a plan: absent members keep their value; `null` clears an optional one. */
export type UpdatePaymentLinkInput = {
  title?: string;
  amount?: number;
  /** Accepted only when it is the plan's own currency. */
  currency?: string;
  intervalType?: IntervalType;
  intervalCount?: number | null;
  trialIntervalType?: IntervalType | null;
  trialIntervalCount?: number | null;
  signupFeeAmount?: number | null;
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
    const terms = this.validTerms(input);
    const now = this.clock(caller).now().getTime();
    const link: PaymentLink = {
      id: newId(),
      merchantId: caller.merchantId,
      mode: caller.mode,
      ...terms,
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

  /**
   * Checks a plan's terms as a whole and converts its amounts; WRONG_INPUT lists every problem.
   * Shared by creation and editing, so an edit can never produce a plan creation would refuse.
   */
  private validTerms(input: Omit<CreatePaymentLinkInput, 'externalId'>): PlanTerms {
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
    if (messages.length > 0 || !amount.ok) {
      throw new AppError('WRONG_INPUT', messages);
    }
    return {
      title,
      amountMinor: amount.minor,
      currency: input.currency,
      intervalType: input.intervalType,
      intervalCount: input.intervalCount,
      trialIntervalType: input.trialIntervalCount ? input.trialIntervalType : null,
      trialIntervalCount: input.trialIntervalCount ?? 0,
      signupFeeMinor,
    };
  }

  /**
   * Edits the terms of an ACTIVE plan: the members given replace the current ones and the plan
   * moves to the next version. Existing subscribers keep what they bought (their recurrent
   * payment copied the terms); the superseded version is kept for checkouts opened before the
   * edit. An edit that changes nothing keeps the version. The currency cannot change: amounts
   * of existing checkouts and subscriptions are in it.
   */
  async update(
    caller: Caller,
    id: string,
    input: UpdatePaymentLinkInput,
    also?: InTransaction<PaymentLink>,
  ): Promise<PaymentLink> {
    const current = await this.get(caller, id);
    if (current.status !== 'ACTIVE') {
      throw new AppError('CONFLICT', [
        `payment link cannot be updated: status is ${current.status}, expected ACTIVE; create a new payment link`,
      ]);
    }
    if (input.currency !== undefined && input.currency !== current.currency) {
      throw new AppError('WRONG_INPUT', [
        `currency cannot be changed (the plan is in ${current.currency}); create a new payment link for another currency`,
      ]);
    }
    const decimals = this.currencies.decimalsOf(current.currency);
    // A trial type sent without a count (or the other way round) is checked against the result, not the request.
    const removesTrial =
      input.trialIntervalType === null || input.trialIntervalCount === null || input.trialIntervalCount === 0;
    const terms = this.validTerms({
      title: input.title ?? current.title,
      amount: input.amount ?? fromMinorUnits(current.amountMinor, decimals),
      currency: current.currency,
      intervalType: input.intervalType ?? current.intervalType,
      intervalCount: input.intervalCount === undefined ? current.intervalCount : input.intervalCount,
      trialIntervalType:
        input.trialIntervalType !== undefined
          ? input.trialIntervalType
          : removesTrial
            ? null
            : current.trialIntervalType,
      trialIntervalCount:
        input.trialIntervalCount !== undefined
          ? input.trialIntervalCount
          : removesTrial
            ? 0
            : current.trialIntervalCount,
      signupFeeAmount:
        input.signupFeeAmount === undefined ? fromMinorUnits(current.signupFeeMinor, decimals) : input.signupFeeAmount,
    });
    if (sameTerms(current, terms)) {
      return this.uow.transaction(async (repos) => {
        await also?.(repos, current);
        return current;
      });
    }
    const now = this.clock(caller).now().getTime();
    return this.uow.transaction(async (repos) => {
      const updated = await repos.paymentLinks.updateTerms(current, terms, now);
      if (!updated) {
        // Another edit (or an archive) committed first: the caller retries against the new version.
        throw new AppError('CONFLICT', ['payment link cannot be updated: it changed meanwhile; retry']);
      }
      await repos.paymentLinks.insertVersion({
        paymentLinkId: current.id,
        version: current.version,
        title: current.title,
        amountMinor: current.amountMinor,
        currency: current.currency,
        intervalType: current.intervalType,
        intervalCount: current.intervalCount,
        trialIntervalType: current.trialIntervalType,
        trialIntervalCount: current.trialIntervalCount,
        signupFeeMinor: current.signupFeeMinor,
        createdAt: current.updatedAt,
        supersededAt: now,
      });
      await also?.(repos, updated);
      return updated;
    });
  }

  async get(caller: Caller, id: string): Promise<PaymentLink> {
    return getOwned(id, 'payment link', (id) => this.uow.read.paymentLinks.get(caller.merchantId, caller.mode, id));
  }

  /**
   * For the public plan link `/l/{id}`: the plan by id alone, ACTIVE or ARCHIVED (the page tells
   * the payer an archived plan is no longer offered). The id is the public link itself, like a
   * checkout id; undefined for an unknown or malformed id.
   */
  async getForPublicLink(id: string): Promise<PaymentLink | undefined> {
    return isWellFormedId(id) ? this.uow.read.paymentLinks.getById(id) : undefined;
  }

  list(caller: Caller, page: PageRequest, filter: { status?: PaymentLinkStatus }): Promise<Page<PaymentLink>> {
    return this.uow.read.paymentLinks.list(caller.merchantId, caller.mode, page, filter);
  }

  /** Archived definitions stay readable (existing subscribers keep them) but start no new subscription. */
  async archive(caller: Caller, id: string): Promise<PaymentLink> {
    return this.uow.transaction(async (repos) => {
      const link = await getOwned(id, 'payment link', (id) =>
        repos.paymentLinks.get(caller.merchantId, caller.mode, id),
      );
      if (link.status === 'ARCHIVED') {
        return link;
      }
      const now = this.clock(caller).now().getTime();
      await repos.paymentLinks.setStatus(caller.merchantId, caller.mode, id, 'ARCHIVED', now);
      return { ...link, status: 'ARCHIVED', updatedAt: now };
    });
  }
}
