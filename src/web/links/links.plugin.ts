import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { CheckoutPreference } from '../../domain/checkout-preferences/checkout-preference.ts';
import type { Caller } from '../../domain/merchants/merchant.ts';
import { AppError } from '../../domain/shared/errors.ts';
import type { PaymentLink } from '../../domain/subscriptions/payment-link.ts';
import { PLAN_LINK_PREFIX } from '../../domain/subscriptions/plan-link-url.ts';
import type { Services } from '../../services.ts';
import { loadAssets } from '../kit/assets.ts';
import { registerHtmlErrorPages } from '../kit/error-pages.ts';
import type { SafeHtml } from '../kit/html.ts';
import { toDocument } from '../kit/html.ts';
import { languageSwitcher, payerLanguage, registerLanguageSwitch } from '../kit/language-switch.ts';
import type { PageContext } from '../kit/payer-layout.ts';
import { messagesFor } from '../kit/payer-messages.ts';
import { readCookie, registerPageNonces } from '../kit/security.ts';
import type { PlanLinkMessages } from './messages.ts';
import { planLinkMessagesFor } from './messages.ts';
import type { PlanLinkStateKind } from './views.ts';
import { renderPlanLinkState, renderPlanPreview } from './views.ts';

/** What the public plan link needs, and nothing more: plans, checkouts, PUBLIC_URL, the link signer. */
export type PlanLinkDeps = Pick<Services, 'paymentLinks' | 'preferences' | 'publicUrl' | 'signer'>;

/**
 * Each request to a plan link may create a checkout preference (a database row), so the link is
 * rate limited per client address: an IPv4 address, or an IPv6 /56 (the plugin's default grouping).
 */
export const PLAN_LINK_RATE_LIMIT = { max: 20, timeWindowMs: 60_000 } as const;

/** How long a browser that opened the link is sent back to the checkout it got, instead of a new one. */
export const PLAN_LINK_REUSE_SECONDS = 5 * 60;

/** Remembers, per plan link (cookie path), the checkout this browser got: `<preference id>.<issued at, s>.<signature>`. */
export const PLAN_LINK_COOKIE = 'cobro_plan_link';
const COOKIE_PURPOSE = 'plan-link-visit';
const COOKIE_VALUE = /^([A-Za-z0-9]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** Who creates the preference: the plan's merchant and mode, through the public link. */
const LINK_CALLER_KEY = 'plan_link';

/**
 * Link-preview fetchers of chat and social apps (and crawlers): they unfurl a shared link with a
 * GET, and must not create a checkout each time. Word-bounded so that no browser matches
 * (in-app browsers say FBAN, Instagram, LinkedInApp…, not these).
 */
const PREVIEW_BOT =
  /(?:Slackbot|Slack-ImgProxy|facebookexternalhit|Facebot|meta-externalagent|Twitterbot|WhatsApp\/|TelegramBot|Discordbot|LinkedInBot|SkypeUriPreview|Pinterestbot|redditbot|Embedly|Iframely|vkShare|Applebot|Googlebot|bingbot|DuckDuckBot|YandexBot|Mastodon\/|Bluesky|MicrosoftPreview|Google-PageRenderer)|(?:^|[^A-Za-z])(?:bot|crawler|spider)(?:[^A-Za-z]|$)/i;

const HTML_TYPE = 'text/html; charset=utf-8';

type IdParams = { id: string };

export function isPreviewBot(userAgent: string | undefined): boolean {
  return userAgent !== undefined && PREVIEW_BOT.test(userAgent.slice(0, 512));
}

/**
 * The public link of every subscription plan, `/l/{payment_link_id}`, like Stripe's Payment Links:
 * a GET creates a SUBSCRIPTION checkout preference for the plan, through the same domain service
 * as `POST /v1/checkout_preferences` (origin `PAYMENT_LINK`, the plan's merchant and mode), and
 * answers `303` to its checkout_url. Unknown id: 404 page; archived plan: 410 page. HEAD and
 * link-preview bots create nothing. An encapsulated plugin: its rate limit, security headers and
 * HTML error pages stay inside `/l`.
 */
export const planLinkPages: FastifyPluginAsync<PlanLinkDeps> = async (app, deps) => {
  const https = new URL(deps.publicUrl).protocol === 'https:';
  const assets = loadAssets();

  await app.register(
    async (scope: FastifyInstance) => {
      // 1. Every response (redirects, pages, errors, 429s) gets the checkout's security headers,
      //    no-store included, and its own script nonce.
      const nonceOf = registerPageNonces(scope, https);
      // The payer's choice of language, remembered for the checkout the link leads to as well.
      registerLanguageSwitch(scope, https);

      // 2. Per client address, before anything is looked up (the plugin's onRequest runs after the headers hook).
      await scope.register(rateLimit, {
        global: true,
        max: PLAN_LINK_RATE_LIMIT.max,
        timeWindow: PLAN_LINK_RATE_LIMIT.timeWindowMs,
        addHeadersOnExceeding: {
          'x-ratelimit-limit': false,
          'x-ratelimit-remaining': false,
          'x-ratelimit-reset': false,
        },
        addHeaders: {
          'x-ratelimit-limit': false,
          'x-ratelimit-remaining': false,
          'x-ratelimit-reset': false,
          'retry-after': true,
        },
        // Becomes the 429 page through the error handler below (Retry-After is already set).
        errorResponseBuilder: () => Object.assign(new Error('plan link rate limit exceeded'), { statusCode: 429 }),
      });

      const texts = (req: FastifyRequest): { page: PageContext['messages']; link: PlanLinkMessages } => {
        const { locale } = payerLanguage(req);
        return { page: messagesFor(locale), link: planLinkMessagesFor(locale) };
      };

      const contextOf = (
        req: FastifyRequest,
        link: PaymentLink | null,
        page: PageContext['messages'],
      ): PageContext => ({
        messages: page,
        nonce: nonceOf(req),
        assets: { css: assets.css.path, js: assets.js.path },
        testMode: link?.mode === 'test',
        switcher: languageSwitcher(req, page.locale),
      });

      const sendPage = (reply: FastifyReply, status: number, page: SafeHtml): FastifyReply =>
        reply
          .code(status)
          .header('content-type', HTML_TYPE)
          .header('vary', 'Accept-Language, Cookie')
          .send(toDocument(page));

      const sendState = (
        req: FastifyRequest,
        reply: FastifyReply,
        status: number,
        kind: PlanLinkStateKind,
        link: PaymentLink | null = null,
      ): FastifyReply => {
        const { page, link: m } = texts(req);
        // The archived page names the plan; nothing else of a plan is ever shown.
        const title = kind === 'archived' && link ? link.title : null;
        return sendPage(reply, status, renderPlanLinkState(contextOf(req, link, page), m, kind, title));
      };

      // 3. Errors, 429s and unknown paths under /l answer with HTML pages, never the API's JSON.
      registerHtmlErrorPages(scope, 'plan link', (req, reply, status, kind) => {
        if (status === 429) {
          return sendState(req, reply, 429, 'rateLimited');
        }
        return sendState(req, reply, status, kind);
      });

      /** The plan behind the link, or the page that says why there is none (sent, then null). */
      const planOf = async (req: FastifyRequest<{ Params: IdParams }>, reply: FastifyReply) => {
        const link = await deps.paymentLinks.getForPublicLink(req.params.id);
        if (!link) {
          sendState(req, reply, 404, 'notFound');
          return null;
        }
        if (link.status !== 'ACTIVE') {
          // 410 Gone: the plan existed and is withdrawn for good (archiving cannot be undone).
          sendState(req, reply, 410, 'archived', link);
          return null;
        }
        return link;
      };

      // ---- remembering this browser's checkout (a signed cookie, no server state) -------------

      const cookiePath = (linkId: string) => `${PLAN_LINK_PREFIX}/${linkId}`;

      const signVisit = (linkId: string, prefId: string, issued: number): string =>
        deps.signer.sign(COOKIE_PURPOSE, `${linkId}.${prefId}.${issued}`);

      const rememberVisit = (reply: FastifyReply, linkId: string, prefId: string): void => {
        const issued = Math.floor(Date.now() / 1000);
        reply.header(
          'set-cookie',
          `${PLAN_LINK_COOKIE}=${prefId}.${issued}.${signVisit(linkId, prefId, issued)}; Path=${cookiePath(linkId)}; Max-Age=${PLAN_LINK_REUSE_SECONDS}; HttpOnly; SameSite=Lax${https ? '; Secure' : ''}`,
        );
      };

      /**
       * The checkout this browser got from this link a moment ago, when it can still sell this plan as
       * it is now: same plan and version, still OPEN. A checkout already being paid (a PIX code shown)
       * is the one to go back to, or the payer could end up subscribing twice.
       */
      const recentCheckout = async (req: FastifyRequest, link: PaymentLink): Promise<CheckoutPreference | null> => {
        const match = COOKIE_VALUE.exec(readCookie(req.headers.cookie, PLAN_LINK_COOKIE) ?? '');
        if (!match) {
          return null;
        }
        const [, prefId = '', issuedText = '', signature = ''] = match;
        const issued = Number(issuedText);
        const age = Math.floor(Date.now() / 1000) - issued;
        if (
          age < 0 ||
          age > PLAN_LINK_REUSE_SECONDS ||
          !deps.signer.verify(COOKIE_PURPOSE, `${link.id}.${prefId}.${issued}`, signature)
        ) {
          return null;
        }
        const pref = await deps.preferences.getForCheckout(prefId);
        const same =
          pref !== undefined &&
          pref.merchantId === link.merchantId &&
          pref.mode === link.mode &&
          pref.paymentLinkId === link.id &&
          pref.paymentLinkVersion === link.version &&
          pref.status === 'OPEN';
        return same ? pref : null;
      };

      // ---- the link -------------------------------------------------------------------------

      /** A checkout for this plan (this browser's recent one, else a new one), and the 303 to it. */
      const subscribe = async (req: FastifyRequest<{ Params: IdParams }>, reply: FastifyReply, link: PaymentLink) => {
        const recent = await recentCheckout(req, link);
        if (recent) {
          return reply.code(303).header('location', deps.preferences.checkoutUrl(recent.id)).send();
        }
        const caller: Caller = { merchantId: link.merchantId, mode: link.mode, key: LINK_CALLER_KEY };
        let pref: CheckoutPreference;
        try {
          // The API's own creation: same rules, events and checkout; origin PAYMENT_LINK (INTERFACE.md §2).
          pref = await deps.preferences.create(caller, {
            type: 'SUBSCRIPTION',
            origin: 'PAYMENT_LINK',
            paymentLinkId: link.id,
          });
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'WRONG_INPUT') {
            throw error;
          }
          // Archived meanwhile, or no payment method can take the plan any more.
          const now = await deps.paymentLinks.getForPublicLink(link.id);
          if (now?.status !== 'ACTIVE') {
            return sendState(req, reply, now ? 410 : 404, now ? 'archived' : 'notFound', now ?? null);
          }
          req.log.warn({ paymentLinkId: link.id, messages: error.messages }, 'plan link: no checkout possible');
          return sendState(req, reply, 409, 'unavailable', link);
        }
        rememberVisit(reply, link.id, pref.id);
        return reply.code(303).header('location', deps.preferences.checkoutUrl(pref.id)).send();
      };

      // Pages are not part of the merchant API: kept out of the OpenAPI document. The id needs no
      // schema: the domain treats a malformed one as unknown (404); Fastify bounds its length (100).
      const hidden = { schema: { hide: true } };

      scope.get<{ Params: IdParams }>(
        '/:id',
        // HEAD is declared below: Fastify's automatic HEAD would run this handler and create a checkout.
        { ...hidden, exposeHeadRoute: false },
        async (req, reply) => {
          const link = await planOf(req, reply);
          if (!link) {
            return reply;
          }
          if (isPreviewBot(req.headers['user-agent'])) {
            const { page, link: m } = texts(req);
            const preview = renderPlanPreview(contextOf(req, link, page), m, {
              title: link.title,
              action: cookiePath(link.id),
            });
            return sendPage(reply, 200, preview);
          }
          return subscribe(req, reply, link);
        },
      );

      // The preview page's button: a person taken for a bot asks for the checkout explicitly.
      scope.post<{ Params: IdParams }>('/:id', hidden, async (req, reply) => {
        const link = await planOf(req, reply);
        return link ? subscribe(req, reply, link) : reply;
      });

      // Link checkers and unfurlers probe with HEAD: they learn whether the link works, and create nothing.
      scope.head<{ Params: IdParams }>('/:id', hidden, async (req, reply) => {
        const link = await planOf(req, reply);
        return link ? reply.code(200).header('content-type', HTML_TYPE).send() : reply;
      });
    },
    { prefix: PLAN_LINK_PREFIX },
  );
};
