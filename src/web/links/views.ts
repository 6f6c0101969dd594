import type { SafeHtml } from '../kit/html.ts';
import { html } from '../kit/html.ts';
import type { PageContext } from '../kit/payer-layout.ts';
import { layout } from '../kit/payer-layout.ts';
import type { PlanLinkMessages } from './messages.ts';

/** Why a plan link did not lead to a checkout. */
export type PlanLinkStateKind = 'notFound' | 'archived' | 'unavailable' | 'rateLimited' | 'error' | 'badRequest';

/**
 * A plan link that leads nowhere (unknown, archived, no method, too many requests, an error), in
 * the checkout's layout and markup. Only the plan's title may be shown, never anything else of the
 * plan or its merchant: the link is public.
 */
export function renderPlanLinkState(
  ctx: PageContext,
  m: PlanLinkMessages,
  kind: PlanLinkStateKind,
  planTitle: string | null = null,
): SafeHtml {
  const texts: Record<PlanLinkStateKind, readonly [string, string]> = {
    notFound: [m.notFoundTitle, m.notFoundText],
    archived: [m.archivedTitle, m.archivedText],
    unavailable: [m.unavailableTitle, m.unavailableText],
    rateLimited: [m.rateLimitedTitle, m.rateLimitedText],
    error: [m.errorTitle, m.errorText],
    badRequest: [m.badRequestTitle, m.badRequestText],
  };
  const [title, text] = texts[kind];
  const body = html`<section class="card" aria-labelledby="state-title" data-test="plan-link-${kind}">
<h1 id="state-title">${title}</h1>
${planTitle ? html`<p class="hint" data-test="plan-title">${planTitle}</p>` : null}
<p>${text}</p>
</section>`;
  return layout(ctx, title, body);
}

/**
 * What a link-preview bot (chat apps unfurling a shared link) gets instead of a new checkout: the
 * plan's title, for the preview card. A person whose browser was taken for a bot still gets a
 * checkout with the button, a form post to the same link.
 */
export function renderPlanPreview(
  ctx: PageContext,
  m: PlanLinkMessages,
  model: { title: string; action: string },
): SafeHtml {
  const body = html`<section class="card" aria-labelledby="plan-title" data-test="plan-link-preview">
<h1 id="plan-title" data-test="plan-title">${model.title}</h1>
<p>${m.previewText}</p>
<form method="post" action="${model.action}">
<button type="submit" class="button pay" data-test="subscribe">${m.subscribe}</button>
</form>
</section>`;
  return layout(ctx, model.title, body);
}
