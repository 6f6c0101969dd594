/**
 * The dashboard's page text in Spanish and Portuguese, keyed by the English text the page is
 * written in (`tr('Gross volume')`, `t` of i18n.ts, in the language of the request being answered): the English stays readable where it is used, and a missing
 * translation falls back to English instead of a blank. `{name}` marks a value filled in at the
 * call (`m.t('Last {days} days', { days: 7 })`); a translation keeps the same names.
 *
 * Each area of the dashboard keeps its words in its own file; `test/web/dashboard-words.test.ts`
 * checks that every literal passed to `t(…)` has both translations, that no entry is unused, and
 * that placeholders match.
 */
export type Words = Record<string, { es: string; pt: string }>;
