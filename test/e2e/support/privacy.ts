import assert from 'node:assert/strict';
import type { Page, Response } from 'playwright-core';
import { withoutRandomTokens } from '../../support/page-text.ts';

/**
 * A payer whose every detail is distinctive enough to be searched for in a page: no label,
 * translation or generated id of ours contains any of these strings.
 */
export const PRIVATE_PAYER = {
  /** As a merchant sends it in `payer` (the phone is stored as `+56987654321`). */
  wire: {
    email: 'marisol.quintanilla@payer.example',
    first_name: 'Marisol',
    last_name: 'Quintanilla',
    phone: '+56 9 8765 4321',
  },
  /** Every spelling that must not reach a finished page, compared case-insensitively. */
  traces: ['marisol', 'quintanilla', 'payer.example', '+56987654321', '56987654321', '8765 4321', '87654321'],
} as const;

/**
 * Asserts that the page, as served and as rendered, holds none of `traces`: the raw HTML of the
 * response, the document as the browser holds it (attributes, hidden elements and the title
 * included) and the visible text.
 */
export async function assertNothingOf(
  traces: readonly string[],
  page: Page,
  response: Response | null,
  what: string,
): Promise<void> {
  assert.ok(response, `${what}: the page answered`);
  const served = withoutRandomTokens(await response.text()).toLowerCase();
  const rendered = withoutRandomTokens(await page.content()).toLowerCase();
  const visible = withoutRandomTokens(await page.locator('body').innerText()).toLowerCase();
  for (const trace of traces) {
    const needle = trace.toLowerCase();
    assert.ok(!served.includes(needle), `${what}: the HTML holds "${trace}":\n${served}`);
    assert.ok(!rendered.includes(needle), `${what}: the document holds "${trace}":\n${rendered}`);
    assert.ok(!visible.includes(needle), `${what}: the page shows "${trace}":\n${visible}`);
  }
}

/** The text of the element carrying `data-test="<name>"`, trimmed; fails at once when the loaded page has none. */
export async function testText(page: Page, name: string): Promise<string> {
  const element = page.locator(`[data-test="${name}"]`);
  assert.ok((await element.count()) > 0, `no data-test="${name}" on ${page.url()}:\n${await page.content()}`);
  return ((await element.first().textContent()) ?? '').trim();
}
