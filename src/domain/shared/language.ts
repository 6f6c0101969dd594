/**
 * The languages Cobro speaks to people (English, Spanish, Portuguese): the payer's pages, the
 * dashboard and the e-mails to payers. Pure data, so the domain can word a payer's e-mail in the
 * language they chose on the checkout.
 */

export type Locale = 'en' | 'es' | 'pt';

export const LOCALES: readonly Locale[] = ['en', 'es', 'pt'];

/** A reader's language and, when they named one, their region (it decides how money is written). */
export type PageLanguage = { locale: Locale; region: string | null };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
