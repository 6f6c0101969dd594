import type { CurrencyTable } from '../../../domain/currencies/currency.ts';
import type { IntervalType } from '../../../domain/subscriptions/payment-link.ts';
import type { SafeHtml } from '../../kit/html.ts';
import { html } from '../../kit/html.ts';
import type { DashboardMessages } from '../i18n.ts';
import { formatMoney } from '../i18n.ts';

// How the terms that plans and their subscriptions share read: price, length, trial, status.

/** Money in the reader's language: `money(999n, 'USD')` → `$9.99`. */
export type MoneyFormat = (amountMinor: bigint, currency: string) => string;

/** The reader's money format, each currency with its own decimals. */
export function moneyOf(currencies: CurrencyTable, m: DashboardMessages): MoneyFormat {
  return (minor, currency) => formatMoney(minor, currency, currencies, m);
}

export const UNIT: Readonly<Record<IntervalType, readonly [string, string]>> = {
  DAY: ['day', 'days'],
  WEEK: ['week', 'weeks'],
  MONTH: ['month', 'months'],
  YEAR: ['year', 'years'],
};

const units = (count: number, type: IntervalType): string => `${count} ${UNIT[type][count === 1 ? 0 : 1]}`;

/** `$9.99 / month`. */
export const priceText = (money: MoneyFormat, amountMinor: bigint, currency: string, type: IntervalType): string =>
  `${money(amountMinor, currency)} / ${UNIT[type][0]}`;

/** `12 months` or `Until cancelled`. */
export const lengthText = (intervalCount: number | null, type: IntervalType): string =>
  intervalCount === null ? 'Until cancelled' : units(intervalCount, type);

export const trialText = (type: IntervalType | null, count: number): string =>
  type !== null && count > 0 ? `${units(count, type)} free` : 'No trial';

export const statusBadge = (status: string): SafeHtml =>
  html`<span class="badge" data-status="${status}" data-test="status">${status}</span>`;
