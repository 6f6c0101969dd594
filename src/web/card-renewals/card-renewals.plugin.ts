import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { renewalConfirmationPath } from '../../domain/connectors/card-renewal-mail.ts';
import type { RenewalConfirmation } from '../../domain/connectors/card-subscription.service.ts';
import { subscriptionPageUrl } from '../../domain/subscriptions/renewal-mail.ts';
import type { Services } from '../../services.ts';
import { loadAssets } from '../kit/assets.ts';
import { registerHtmlErrorPages } from '../kit/error-pages.ts';
import type { SafeHtml } from '../kit/html.ts';
import { toDocument } from '../kit/html.ts';
import { languageSwitcher, payerLanguage, registerLanguageSwitch } from '../kit/language-switch.ts';
import { formatMoney } from '../kit/money.ts';
import { messagesFor } from '../kit/payer-messages.ts';
import { applySecurityHeaders, contentSecurityPolicy, registerPageNonces } from '../kit/security.ts';
import { subscriptionMessagesFor } from '../subscriptions/messages.ts';
import { renderSubscriptionState } from '../subscriptions/views.ts';
import { cardRenewalMessagesFor } from './messages.ts';
import type { RenewalPageContext, RenewalResult } from './views.ts';
import { renderConfirmPage, renderResultPage } from './views.ts';

type Params = { recId: string; orderId: string };
type Query = { sig?: string };

const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * Where a subscriber confirms a card renewal their bank wants them present for (3-D Secure),
 * reached by the signed link of the mail: `GET /subscriptions/:recId/renewals/:orderId?sig=…`
 * mounts Stripe.js and hands the payer to their bank; `…/return?sig=…` asks Stripe (server
 * side) what became of it and says paid, in progress or failed. A wrong signature, or one of
 * another order or subscription, is the same 404 as an unknown id.
 */
export const cardRenewalPages: FastifyPluginAsync<Services> = async (app, deps) => {
  const publicBase = new URL(deps.publicUrl);
  const https = publicBase.protocol === 'https:';
  const assets = loadAssets();
  const renewals = deps.connectors.cardSubscriptions;

  await app.register(async (scope: FastifyInstance) => {
    const nonceOf = registerPageNonces(scope, https);
    registerLanguageSwitch(scope, https);

    const contextOf = (req: FastifyRequest, testMode: boolean): RenewalPageContext => {
      const messages = messagesFor(payerLanguage(req).locale);
      const t = subscriptionMessagesFor(messages.locale);
      return {
        messages,
        t,
        r: cardRenewalMessagesFor(messages.locale),
        nonce: nonceOf(req),
        assets: { css: assets.css.path, js: assets.js.path },
        testMode,
        switcher: languageSwitcher(req, messages.locale),
        siteName: t.siteName,
      };
    };

    const send = (req: FastifyRequest, reply: FastifyReply, status: number, page: SafeHtml, stripe = false) => {
      const nonce = nonceOf(req);
      applySecurityHeaders(reply, { nonce, https });
      if (stripe) {
        // The checkout's policy with what Stripe.js needs (its script, frames, API), on these pages only.
        reply.header('content-security-policy', contentSecurityPolicy(nonce, [], ['stripe']));
      }
      return reply
        .code(status)
        .header('content-type', HTML_TYPE)
        .header('vary', 'Accept-Language, Cookie')
        .send(toDocument(page));
    };

    const notFound = (req: FastifyRequest, reply: FastifyReply) =>
      send(req, reply, 404, renderSubscriptionState(contextOf(req, false), 'notFound'));

    registerHtmlErrorPages(
      scope,
      'card renewal page',
      (req, reply, status, kind) => send(req, reply, status, renderSubscriptionState(contextOf(req, false), kind)),
      { notFound: false },
    );

    const found = async (req: FastifyRequest<{ Params: Params; Querystring: Query }>) =>
      renewals.confirmation(req.params.recId, req.params.orderId, req.query.sig ?? '');

    const resultOf = (req: FastifyRequest, c: RenewalConfirmation): RenewalResult => {
      const locale = payerLanguage(req);
      return {
        title: c.rec.title,
        amount: formatMoney(c.order.chargedAmountMinor, c.order.chargedCurrency, deps.currencies, locale),
        confirmUrl: renewalConfirmationPath(deps.signer, c.rec.id, c.order.id),
        subscriptionUrl: subscriptionPageUrl('', deps.signer, c.rec.id),
        kind:
          c.order.status === 'CLOSED'
            ? 'paid'
            : c.order.status !== 'OPENED'
              ? 'closed'
              : c.outcome === 'WAIT'
                ? 'processing'
                : 'failed',
      };
    };

    scope.get<{ Params: Params; Querystring: Query }>(
      '/subscriptions/:recId/renewals/:orderId',
      { schema: { hide: true } },
      async (req, reply) => {
        const c = await found(req);
        if (!c) {
          return notFound(req, reply);
        }
        const ctx = contextOf(req, c.order.mode === 'test');
        const result = resultOf(req, c);
        if (c.order.status !== 'OPENED' || !c.clientSecret || c.outcome === 'WAIT') {
          return send(req, reply, 200, renderResultPage(ctx, result));
        }
        const page = renderConfirmPage(ctx, {
          ...result,
          publishableKey: c.publishableKey,
          clientSecret: c.clientSecret,
          paymentMethodId: c.paymentMethodId,
          nextAction: c.status === 'requires_action',
          // Relative: the browser comes back to the origin it is on.
          returnUrl: result.confirmUrl.replace('?', '/return?'),
          locale: ctx.messages.locale,
        });
        return send(req, reply, 200, page, true);
      },
    );

    scope.get<{ Params: Params; Querystring: Query }>(
      '/subscriptions/:recId/renewals/:orderId/return',
      { schema: { hide: true } },
      async (req, reply) => {
        const c = await found(req);
        if (!c) {
          return notFound(req, reply);
        }
        return send(req, reply, 200, renderResultPage(contextOf(req, c.order.mode === 'test'), resultOf(req, c)));
      },
    );
  });
};
