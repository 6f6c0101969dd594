import type { CurrencyTable } from '../currencies/currency.ts';
import type { Caller } from '../merchants/merchant.ts';
import { eligibleMethods, ineligibilityReason } from '../payment-methods/eligibility.ts';
import type { MethodAvailabilityService, MethodOffer } from '../payment-methods/method-availability.ts';
import { methodLabel, reasonClause } from '../payment-methods/method-availability.ts';
import type { PaymentMethodService } from '../payment-methods/payment-method.service.ts';
import type { PaymentMethod, PaymentMethodType } from '../payment-methods/payment-method.ts';
import { parseBoundedAmount } from '../shared/amount-rules.ts';
import type { Clock } from '../shared/clock.ts';
import { parseRfc3339 } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { isWellFormedId, newId } from '../shared/ids.ts';
import { getOwned } from '../shared/owned.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { InTransaction } from '../subscriptions/payment-link.service.ts';
import type { PaymentLink } from '../subscriptions/payment-link.ts';
import type { PayerInput } from './checkout-preference.rules.ts';
import { normalizePayer, urlProblem } from './checkout-preference.rules.ts';
import type { CheckoutPreference, PreferenceFilter, PreferenceType } from './checkout-preference.ts';
import { effectiveStatus } from './checkout-preference.ts';

export type CreatePreferenceInput = {
  type: PreferenceType;
  amount?: number | null;
  currency?: string | null;
  title?: string | null;
  /** `API` from the API; `PAYMENT_LINK` when the merchant creates it in the dashboard (INTERFACE.md §2). */
  origin: 'API' | 'PAYMENT_LINK';
  externalId?: string | null;
  expirationDate?: string | null;
  /** Instead of expirationDate: how long from now, by the merchant's clock (the dashboard's "expires in" choice). */
  expiresInMs?: number | null;
  payer?: PayerInput | null;
  paymentMethodTypes?: PaymentMethodType[] | null;
  selectedPaymentMethodId?: string | null;
  customUrls?: {
    status_changes_webhook?: string | null;
    success_payment_redirect?: string | null;
    error_payment_redirect?: string | null;
  } | null;
  paymentLinkId?: string | number | null;
};

export const DEFAULT_EXPIRY_MS = 15 * 60_000;
export const MAX_EXPIRY_MS = 7 * 24 * 3_600_000;

/** A URL member: empty string means not given, like the payer members. */
function optionalUrl(field: string, value: string | null | undefined, messages: string[]): string | null {
  if (value === undefined || value === null || value.trim() === '') {
    return null;
  }
  const problem = urlProblem(field, value);
  if (problem) {
    messages.push(problem);
    return null;
  }
  return value;
}

/**
 * Each method that could take the payment and why its merchant cannot offer it, a reason once
 * with the methods it stops: "CARD in BRL: card payments need…; BTC on Bitcoin, …: this server…".
 */
function whyNoneOffered(methods: readonly PaymentMethod[], offer: MethodOffer): string {
  const byReason = new Map<string, string[]>();
  for (const method of methods) {
    const why = offer.whyNot(method);
    if (why) {
      const clause = reasonClause(why);
      const labels = byReason.get(clause) ?? [];
      const label = methodLabel(method);
      if (!labels.includes(label)) {
        labels.push(label);
      }
      byReason.set(clause, labels);
    }
  }
  return [...byReason].map(([clause, labels]) => `${labels.join(', ')}: ${clause}`).join('; ');
}

export class CheckoutPreferenceService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: (caller: Caller) => Clock,
    private readonly currencies: CurrencyTable,
    private readonly methods: PaymentMethodService,
    private readonly availability: MethodAvailabilityService,
    private readonly publicUrl: string,
    /** Refuses webhook targets that are decidably private or internal (SSRF), at creation. */
    private readonly webhookUrlPolicy: (url: string) => string | null = () => null,
  ) {}

  checkoutUrl(id: string): string {
    return `${this.publicUrl}/checkout/${id}`;
  }

  async create(
    caller: Caller,
    input: CreatePreferenceInput,
    also?: InTransaction<CheckoutPreference>,
  ): Promise<CheckoutPreference> {
    const now = this.clock(caller).now().getTime();
    const messages: string[] = [];

    // 1. What is charged: from the request (PAYMENT) or from the subscription definition.
    let amountMinor = 0n;
    let currency = '';
    let title = '';
    let link: PaymentLink | undefined;
    if (input.type === 'PAYMENT') {
      if (input.title === undefined || input.title === null || input.title.trim() === '') {
        messages.push('title is required for a PAYMENT preference');
      } else {
        title = input.title.trim();
      }
      if (input.currency === undefined || input.currency === null || input.currency === '') {
        messages.push('currency is required for a PAYMENT preference');
      } else if (!this.currencies.get(input.currency)) {
        messages.push(`currency must be one of the supported currencies (GET /v1/currencies), got ${input.currency}`);
      } else {
        currency = input.currency;
      }
      if (input.amount === undefined || input.amount === null) {
        messages.push('amount is required for a PAYMENT preference');
      } else if (currency) {
        const amount = parseBoundedAmount('amount', input.amount, currency, this.currencies);
        if (amount.ok) {
          amountMinor = amount.minor;
        } else {
          messages.push(...amount.messages);
        }
      }
    } else {
      const linkId =
        input.paymentLinkId === undefined || input.paymentLinkId === null ? '' : String(input.paymentLinkId).trim();
      if (linkId === '') {
        messages.push('payment_link_id is required for a SUBSCRIPTION preference');
      } else {
        link = isWellFormedId(linkId)
          ? await this.uow.read.paymentLinks.get(caller.merchantId, caller.mode, linkId)
          : undefined;
        if (link?.status !== 'ACTIVE') {
          messages.push(
            'payment_link_id must be the id of an active subscription definition (payment link) of this account',
          );
          link = undefined;
        } else {
          amountMinor = link.amountMinor;
          currency = link.currency;
          title = link.title;
        }
      }
    }

    // 2. Who pays, when it expires, where to notify and redirect.
    const payer = normalizePayer(input.payer, messages);
    let expiresAt = now + DEFAULT_EXPIRY_MS;
    if (input.expiresInMs !== undefined && input.expiresInMs !== null) {
      if (!Number.isInteger(input.expiresInMs) || input.expiresInMs < 60_000 || input.expiresInMs > MAX_EXPIRY_MS) {
        messages.push('expires_in must be from 1 minute to 7 days');
      } else {
        const at = now + input.expiresInMs;
        expiresAt = at - (at % 1000);
      }
    } else if (input.expirationDate !== undefined && input.expirationDate !== null && input.expirationDate !== '') {
      const parsed = parseRfc3339(input.expirationDate);
      if (parsed === null) {
        messages.push('expiration_date must be an RFC 3339 timestamp such as 2024-06-12T15:26:47Z');
      } else if (parsed <= now) {
        messages.push('expiration_date must be in the future');
      } else if (parsed > now + MAX_EXPIRY_MS) {
        messages.push('expiration_date must be at most 7 days from now');
      } else {
        // Second precision, like every timestamp on the wire.
        expiresAt = parsed - (parsed % 1000);
      }
    }
    const urls = input.customUrls ?? {};
    const customUrls = {
      statusChangesWebhook: ((url) => {
        const problem = url === null ? null : this.webhookUrlPolicy(url);
        if (problem) {
          messages.push(`custom_urls.status_changes_webhook ${problem}`);
          return null;
        }
        return url;
      })(optionalUrl('custom_urls.status_changes_webhook', urls.status_changes_webhook, messages)),
      successPaymentRedirect: optionalUrl(
        'custom_urls.success_payment_redirect',
        urls.success_payment_redirect,
        messages,
      ),
      errorPaymentRedirect: optionalUrl('custom_urls.error_payment_redirect', urls.error_payment_redirect, messages),
    };
    // Counted in characters (code points), as the request schema counts them: 255 emoji are 255 characters.
    if (input.externalId !== undefined && input.externalId !== null && [...input.externalId].length > 255) {
      messages.push('external_id must be at most 255 characters');
    }

    // 3. Which methods could take it: at least one, and the selected one among them.
    const types = input.paymentMethodTypes ? [...new Set(input.paymentMethodTypes)] : null;
    const selectedId =
      input.selectedPaymentMethodId === undefined ||
      input.selectedPaymentMethodId === null ||
      input.selectedPaymentMethodId === ''
        ? null
        : input.selectedPaymentMethodId;
    if (messages.length === 0) {
      const query = { amount: { amountMinor, currency }, types, recurrent: input.type === 'SUBSCRIPTION' };
      const [all, offer] = await Promise.all([
        this.methods.all(),
        this.availability.offerOf(caller.merchantId, caller.mode),
      ]);
      if (selectedId !== null) {
        const method = all.find((m) => m.id === selectedId);
        const reason = method ? ineligibilityReason(method, query, this.currencies) : 'does not exist';
        const unavailable = method && !reason ? offer.whyNot(method) : null;
        if (reason) {
          messages.push(`selected_payment_method_id: the payment method ${reason}`);
        } else if (method && unavailable) {
          messages.push(
            `selected_payment_method_id: the payment method ${method.id} (${methodLabel(method)}) is not available in ${caller.mode} mode: ${reasonClause(unavailable)}`,
          );
        }
      } else if (!all.some((m) => ineligibilityReason(m, query, this.currencies) === null && !offer.whyNot(m))) {
        // Messages start with the field to change: the types, else what fixes the amount.
        const field = types ? 'payment_method_types' : input.type === 'SUBSCRIPTION' ? 'payment_link_id' : 'amount';
        const among = `${types ? ' among payment_method_types' : ''}${
          input.type === 'SUBSCRIPTION' ? ' with recurrent payments' : ''
        }`;
        const eligible = eligibleMethods(all, query, this.currencies);
        messages.push(
          eligible.length === 0
            ? `${field}: no payment method can take ${currency} for this amount${among}`
            : `${field}: no payment method available in ${caller.mode} mode can take ${currency} for this amount${among} (${whyNoneOffered(eligible, offer)})`,
        );
      }
    }
    if (messages.length > 0) {
      throw new AppError('WRONG_INPUT', messages);
    }

    const pref: CheckoutPreference = {
      id: newId(),
      merchantId: caller.merchantId,
      mode: caller.mode,
      type: input.type,
      status: 'OPEN',
      amountMinor,
      currency,
      title,
      origin: input.origin,
      originId: null,
      externalId: input.externalId ?? null,
      paymentLinkId: link?.id ?? null,
      paymentLinkVersion: link?.version ?? null,
      payer,
      paymentMethodTypes: types,
      selectedPaymentMethodId: selectedId,
      customUrls,
      expiresAt,
      createdAt: now - (now % 1000),
      updatedAt: now - (now % 1000),
      paymentOrderId: null,
    };
    if (also) {
      await this.uow.transaction(async (repos) => {
        await repos.preferences.insert(pref);
        await also(repos, pref);
      });
    } else {
      // The insert alone: the most frequent write of all, and on PostgreSQL a third of the round trips.
      await this.uow.oneStatement((repos) => repos.preferences.insert(pref));
    }
    return pref;
  }

  async get(caller: Caller, id: string): Promise<CheckoutPreference> {
    const pref = await getOwned(id, 'checkout preference', (id) =>
      this.uow.read.preferences.get(caller.merchantId, caller.mode, id),
    );
    return this.withEffectiveStatus(caller, pref);
  }

  async list(caller: Caller, page: PageRequest, filter: PreferenceFilter): Promise<Page<CheckoutPreference>> {
    const now = this.clock(caller).now().getTime();
    const result = await this.uow.read.preferences.list(caller.merchantId, caller.mode, page, { ...filter, now });
    return { ...result, data: result.data.map((p) => this.withEffectiveStatus(caller, p)) };
  }

  /** For the hosted checkout: by id alone (the id is the payer's capability), with its effective status. */
  async getForCheckout(id: string): Promise<CheckoutPreference | undefined> {
    const pref = isWellFormedId(id) ? await this.uow.read.preferences.getById(id) : undefined;
    return pref ? this.withEffectiveStatus({ merchantId: pref.merchantId, mode: pref.mode, key: '' }, pref) : undefined;
  }

  private withEffectiveStatus(caller: Caller, pref: CheckoutPreference): CheckoutPreference {
    const status = effectiveStatus(pref, this.clock(caller).now().getTime());
    return status === pref.status ? pref : { ...pref, status };
  }
}
