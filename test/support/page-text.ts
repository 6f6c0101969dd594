/**
 * A page's text without its random tokens: ids (22 characters), script nonces (43) and any
 * other run of 22 or more letters, digits, `-` or `_`. A short trace a test looks for in a page
 * (a card's last four digits, its brand) turns up inside such a token by chance, about once in
 * a few thousand pages; a leaked value is never part of one.
 */
export function withoutRandomTokens(text: string): string {
  return text.replace(/[A-Za-z0-9_-]{22,}/g, ' ');
}

/** The text of a page's element carrying `data-test="<name>"` (its first one), tags removed; null without one. */
export function testText(body: string, name: string): string | null {
  const match = new RegExp(`data-test="${name}"[^>]*>([\\s\\S]*?)</(?:dd|code|p|div|span)>`).exec(body);
  return match ? (match[1] ?? '').replace(/<[^>]+>/g, '').trim() : null;
}
