/**
 * HTML for the checkout pages is built only through the `html` tag below: every interpolated
 * value is escaped unless it is already a `SafeHtml` (made by this tag, or by `trustedMarkup`
 * for the few fragments produced by our own renderers). There is no way to splice a plain
 * string in unescaped, so a merchant's title or a payer's name can never become markup.
 */

const SAFE = Symbol('SafeHtml');

/** Markup that is known to be safe: built by `html`, or explicitly trusted with `trustedMarkup`. */
export type SafeHtml = { readonly [SAFE]: true; readonly value: string };

/** What a template accepts: text (escaped), safe markup (kept), lists of either, or nothing. */
export type HtmlValue = SafeHtml | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};

/**
 * Escapes text for use in element content and in quoted attribute values. `=` and the backtick
 * are escaped too, so even an unquoted attribute written by mistake cannot be broken out of
 * with an event handler (`x onerror=…`).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=]/g, (c) => ESCAPES[c] ?? c);
}

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && SAFE in value;
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) {
    return '';
  }
  if (isSafe(value)) {
    return value.value;
  }
  if (Array.isArray(value)) {
    return value.map((v: HtmlValue) => render(v)).join('');
  }
  return escapeHtml(String(value));
}

/** Tagged template: the literal parts are ours, every `${…}` is escaped (safe markup and lists excepted). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += render(values[i]) + (strings[i + 1] ?? '');
  }
  return { [SAFE]: true, value: out };
}

/**
 * Marks markup produced by one of our own renderers (the QR and barcode SVGs, whose only
 * variable parts are digits or text they escape themselves) as safe. Never call it with
 * anything that contains data from a request or from a merchant.
 */
export function trustedMarkup(markup: string): SafeHtml {
  return { [SAFE]: true, value: markup };
}

/** The final document text. */
export function toDocument(page: SafeHtml): string {
  return `<!doctype html>\n${page.value}`;
}
