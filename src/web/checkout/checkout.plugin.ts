import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { CheckoutPreference } from '../../domain/checkout-preferences/checkout-preference.ts';
import type { StoredSettings } from '../../domain/merchants/merchant-settings.ts';
import type { PaymentMethod } from '../../domain/payment-methods/payment-method.ts';
import { payerRedirectUrl } from '../../domain/payment-orders/payer-redirect.ts';
import type { PaymentOrder } from '../../domain/payment-orders/payment-order.ts';
import { AppError } from '../../domain/shared/errors.ts';
import type { Services } from '../../services.ts';
import type { Asset } from '../kit/assets.ts';
import { loadAssets } from '../kit/assets.ts';
import type { Payee } from '../kit/brand.ts';
import { accentStylesheet, payeeOf, processorAppearance } from '../kit/brand.ts';
import { registerHtmlErrorPages } from '../kit/error-pages.ts';
import type { CardFields, FieldErrors, FormValues } from '../kit/form-input.ts';
import {
  askedPayer,
  CARD_FIELD_NAMES,
  EMPTY_VALUES,
  fieldErrorsFrom,
  formField,
  lengthErrors,
  readSubmission,
} from '../kit/form-input.ts';
import { isBoleto, methodName } from '../kit/format.ts';
import type { SafeHtml } from '../kit/html.ts';
import { toDocument } from '../kit/html.ts';
import { chainProgressText } from '../kit/instructions/crypto.ts';
import { renderPanel } from '../kit/instructions/index.ts';
import { languageSwitcher, payerLanguage, registerLanguageSwitch } from '../kit/language-switch.ts';
import type { Locale } from '../kit/locale.ts';
import { formatMoney } from '../kit/money.ts';
import type { PageContext } from '../kit/payer-layout.ts';
import { receiptOf } from '../kit/payer-layout.ts';
import type { Messages } from '../kit/payer-messages.ts';
import { messagesFor } from '../kit/payer-messages.ts';
import type { ThirdParty } from '../kit/security.ts';
import { applySecurityHeaders, CsrfGuard, redirectOrigins, registerPageNonces } from '../kit/security.ts';
import { BACK_FIELD, STEP_FIELD } from './views/card-step.view.ts';
import { renderCheckoutForm } from './views/form.view.ts';
import type { HostedCardModel } from './views/hosted-card.view.ts';
import { renderHostedCard } from './views/hosted-card.view.ts';
import type { ResultKind, StateKind } from './views/pages.view.ts';
import { renderOrderPage, renderResult, renderState } from './views/pages.view.ts';

type IdParams = { id: string };
type OrderParams = { id: string; orderId: string };

/** Form posts are small: payer details and card fields. Anything bigger is not a payer's form. */
const FORM_BODY_LIMIT = 16 * 1024;

const HTML_TYPE = 'text/html; charset=utf-8';

const checkoutPath = (prefId: string) => `/checkout/${prefId}`;
const orderPath = (prefId: string, orderId: string) => `/checkout/${prefId}/orders/${orderId}`;
/** Where Stripe sends the payer back after confirming (Stripe appends its own query, which is never read). */
const cardReturnPath = (prefId: string, orderId: string) => `${orderPath(prefId, orderId)}/card/return`;
/** Seconds before the processing page looks again. */
const PROCESSING_REFRESH_SECONDS = 3;

/**
 * The hosted checkout (server-rendered): `GET/POST /checkout/:id`, the order panel and its
 * status, the test-mode simulate button and our static assets. An encapsulated plugin: its
 * form parser, error handler and not-found handler (HTML) never leak into the JSON API.
 */
export const checkoutPages: FastifyPluginAsync<Services> = async (app, deps) => {
  const publicBase = new URL(deps.publicUrl);
  const https = publicBase.protocol === 'https:';
  const csrf = new CsrfGuard(deps.csrfKey, publicBase.origin, https);
  const assets = loadAssets();

  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });

  await app.register(
    async (scope: FastifyInstance) => {
      // 1. Every response of the checkout gets the security headers and its own script nonce,
      //    errors and 404s included; pages that redirect to the merchant widen form-action later.
      const nonceOf = registerPageNonces(scope, https);
      // `?lang=pt` on any page: the payer's choice is remembered, and the page shown again without it.
      registerLanguageSwitch(scope, https);

      const messagesOf = (req: FastifyRequest): Messages => messagesFor(payerLanguage(req).locale);

      /** Whom the payer pays, looked up once per request with its checkout (see findCheckout). */
      const payees = new WeakMap<FastifyRequest, Payee>();
      /** The merchant's stored settings, read with its profile: which methods a live payer is offered. */
      const merchantSettings = new WeakMap<FastifyRequest, StoredSettings>();

      const contextOf = (req: FastifyRequest, pref: CheckoutPreference | null): PageContext => {
        const messages = messagesOf(req);
        return {
          messages,
          nonce: nonceOf(req),
          assets: { css: assets.css.path, js: assets.js.path },
          testMode: pref?.mode === 'test',
          payee: pref ? (payees.get(req) ?? null) : null,
          switcher: languageSwitcher(req, messages.locale, switchBase(req)),
        };
      };

      /** The checkout, and the merchant's business profile for every page this request shows of it. */
      const findCheckout = async (req: FastifyRequest, id: string): Promise<CheckoutPreference | undefined> => {
        const pref = await deps.preferences.getForCheckout(id);
        if (pref) {
          const { profile, settings } = await deps.profiles.getWithSettings(pref.merchantId);
          payees.set(req, payeeOf(profile));
          merchantSettings.set(req, settings);
        }
        return pref;
      };

      const moneyOf = (req: FastifyRequest, amountMinor: bigint, currency: string): string =>
        formatMoney(amountMinor, currency, deps.currencies, payerLanguage(req));

      const amountOf = (req: FastifyRequest, pref: CheckoutPreference): string =>
        moneyOf(req, pref.amountMinor, pref.currency);

      const sendPage = (
        req: FastifyRequest,
        reply: FastifyReply,
        status: number,
        page: SafeHtml,
        pref: CheckoutPreference | null = null,
        allow: readonly ThirdParty[] = [],
      ): FastifyReply => {
        // Re-applied so this page's CSP has this page's nonce and the merchant's redirect origins
        // (and, on the card step of a Stripe-connected checkout alone, what Stripe.js needs).
        applySecurityHeaders(reply, {
          nonce: nonceOf(req),
          https,
          allow,
          formTargets: pref
            ? redirectOrigins([pref.customUrls.successPaymentRedirect, pref.customUrls.errorPaymentRedirect])
            : [],
        });
        return reply
          .code(status)
          .header('content-type', HTML_TYPE)
          .header('vary', 'Accept-Language, Cookie')
          .send(toDocument(page));
      };

      const sendState = (
        req: FastifyRequest,
        reply: FastifyReply,
        status: number,
        kind: StateKind,
        pref: CheckoutPreference | null = null,
        backUrl: string | null = null,
      ): FastifyReply =>
        sendPage(
          req,
          reply,
          status,
          // The receipt only: these pages show a checkout that cannot be paid here, never its payer.
          renderState(contextOf(req, pref), kind, pref ? receiptOf(pref, amountOf(req, pref)) : null, backUrl),
          pref,
        );

      /** 303 See Other: after a form post the browser follows with a GET (no re-post on reload). */
      const seeOther = (reply: FastifyReply, location: string): FastifyReply =>
        reply.code(303).header('location', location).send();

      // 2. Errors and unknown paths under /checkout answer with HTML pages, never the API's JSON.
      registerHtmlErrorPages(scope, 'checkout page', (req, reply, status, kind) => sendState(req, reply, status, kind));

      // 3. Our own stylesheet and script, under content-hashed names so they can be cached for good.
      // Pages are not part of the merchant API: kept out of the OpenAPI document.
      const hidden = { schema: { hide: true } };

      const byPath = new Map<string, Asset>([
        [assets.css.path, assets.css],
        [assets.js.path, assets.js],
        [assets.stripeCard.path, assets.stripeCard],
      ]);
      scope.get<{ Params: { name: string } }>('/assets/:name', hidden, async (req, reply) => {
        const asset = byPath.get(`/checkout/assets/${req.params.name}`);
        if (!asset) {
          return sendState(req, reply, 404, 'notFound');
        }
        return reply
          .code(200)
          .header('content-type', asset.contentType)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send(asset.body);
      });

      // The merchant's accent colour as a stylesheet: the colour is in the name, so any colour's
      // sheet can be cached for good, and no merchant data is read to serve it.
      scope.get<{ Params: { file: string } }>('/assets/accent/:file', hidden, async (req, reply) => {
        const css = /^([0-9a-f]{6})\.css$/.exec(req.params.file)?.[1];
        const body = css ? accentStylesheet(css) : null;
        if (!body) {
          return sendState(req, reply, 404, 'notFound');
        }
        return reply
          .code(200)
          .header('content-type', 'text/css; charset=utf-8')
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send(body);
      });

      // The merchant's logo, from our origin: content-addressed (SHA-256), checked to be a whole PNG
      // or JPEG when uploaded, sent with its own type and nosniff so a browser never takes it for
      // anything else, and inline (shown, never offered as a download of some other kind).
      scope.get<{ Params: { merchantId: string; file: string } }>(
        '/assets/logos/:merchantId/:file',
        hidden,
        async (req, reply) => {
          const match = /^([0-9a-f]{64})\.(png|jpg)$/.exec(req.params.file);
          const logo =
            match && /^[A-Za-z0-9]{1,64}$/.test(req.params.merchantId)
              ? await deps.profiles.logoFile(req.params.merchantId, match[1] ?? '')
              : undefined;
          const extension = logo?.contentType === 'image/png' ? 'png' : 'jpg';
          if (!match || !logo || match[2] !== extension) {
            return sendState(req, reply, 404, 'notFound');
          }
          return reply
            .code(200)
            .header('content-type', logo.contentType)
            .header('x-content-type-options', 'nosniff')
            .header('content-disposition', `inline; filename="logo.${extension}"`)
            .header('cache-control', 'public, max-age=31536000, immutable')
            .send(Buffer.from(logo.bytes));
        },
      );

      // ---- the checkout form ------------------------------------------------------------------

      const renderForm = async (
        req: FastifyRequest,
        reply: FastifyReply,
        pref: CheckoutPreference,
        status: number,
        input: {
          values: FormValues | null;
          errors: FieldErrors;
          general: readonly string[];
          step?: 'details' | 'card';
        },
      ): Promise<FastifyReply> => {
        const methods = await deps.orders.eligibleFor(pref, merchantSettings.get(req));
        if (methods.length === 0) {
          return sendState(req, reply, 200, 'noMethods', pref);
        }
        // The preference's own pointer to its latest order, not a sort by created_at: two orders made
        // within one clock tick (a frozen test clock, a fast retry) would come back in either order.
        const latest = pref.paymentOrderId ? await deps.orders.getForCheckout(pref.id, pref.paymentOrderId) : undefined;
        const page = renderCheckoutForm(contextOf(req, pref), {
          pref,
          amountText: amountOf(req, pref),
          methods,
          asked: askedPayer(pref),
          // Coming back after a declined card (or to change method): what the payer typed last time, card excepted.
          values: input.values ?? (latest ? valuesFromOrder(latest) : EMPTY_VALUES),
          errors: input.errors,
          general: input.general,
          csrfToken: csrf.tokenFor(req, reply, pref.id),
          openOrderUrl: latest?.status === 'OPENED' ? orderPath(pref.id, latest.id) : null,
          step: input.step ?? 'details',
          cardsByProcessor: await cardsByProcessor(req, pref),
        });
        return sendPage(req, reply, status, page, pref);
      };

      /**
       * A checkout that can no longer be paid gets its own page (PAID or EXPIRED), whatever was asked:
       * title, amount, status and the merchant's reference, nothing about the payer (its URL outlives the payment).
       */
      const closedCheckout = (
        req: FastifyRequest,
        reply: FastifyReply,
        pref: CheckoutPreference,
        status: number,
      ): FastifyReply => sendState(req, reply, status, pref.status === 'PAID' ? 'paid' : 'expired', pref);

      scope.get<{ Params: IdParams }>('/:id', hidden, async (req, reply) => {
        const pref = await findCheckout(req, req.params.id);
        if (!pref) {
          return sendState(req, reply, 404, 'notFound');
        }
        if (pref.status !== 'OPEN') {
          return closedCheckout(req, reply, pref, 200);
        }
        return renderForm(req, reply, pref, 200, { values: null, errors: {}, general: [] });
      });

      scope.post<{ Params: IdParams }>('/:id', hidden, async (req, reply) => {
        const submission = readSubmission(req.body);
        // Nothing is looked up for a post that is not from our own page with this browser's token.
        if (!csrf.check(req, req.params.id, submission.csrfToken)) {
          return sendState(req, reply, 403, 'csrf', null, checkoutLink(req.params.id));
        }
        const pref = await findCheckout(req, req.params.id);
        if (!pref) {
          return sendState(req, reply, 404, 'notFound');
        }
        if (pref.status !== 'OPEN') {
          return closedCheckout(req, reply, pref, 409);
        }
        const m = messagesOf(req);
        const values = submission.values;
        if (formField(req.body, BACK_FIELD) !== '') {
          // Back from the card step: the details come back; the method is chosen again.
          return renderForm(req, reply, pref, 200, {
            values: { ...values, payment_method_id: '' },
            errors: {},
            general: [],
          });
        }
        const methods = await deps.orders.eligibleFor(pref, merchantSettings.get(req));
        const chosen = methods.find(
          (method) => method.id === (pref.selectedPaymentMethodId ?? values.payment_method_id),
        );
        // Cards through the merchant's own processor: the order opens without card data, and the
        // processor's fields take the card on the next page.
        const processorCards = await cardsByProcessor(req, pref);
        const viaProcessor = chosen?.type === 'CARD' && processorCards;
        // Card data counts for a card payment by the built-in processor only: beside any other
        // method, or when the merchant's processor takes the card, it is dropped here, never
        // checked, shown, logged or sent on, whatever the browser posted.
        const card = chosen?.type === 'CARD' && !viaProcessor ? submission.card : null;
        const choice = offersChoice(pref, methods);
        // The card step: Card chosen among several methods, and the post came from that step or
        // carried no card field (no script, or a client that sent none): shown then, not an error.
        const onCardStep =
          !viaProcessor &&
          chosen?.type === 'CARD' &&
          choice &&
          (formField(req.body, STEP_FIELD) === 'card' || card === null);
        const refused = (status: number, found: FieldErrors, general: readonly string[]): Promise<FastifyReply> => {
          const payerWrong = Object.keys(found).some((key) => !CARD_FIELD_NAMES.includes(key as keyof FieldErrors));
          const step = onCardStep && !payerWrong ? 'card' : 'details';
          // Card errors only beside card fields the payer filled in on the page shown again: not
          // when no card was posted (the payer has not been asked for it yet), and not when the
          // card step's payer details go back to the first page to be fixed.
          const errors =
            choice && (card === null || (onCardStep && step === 'details')) ? withoutCardErrors(found) : found;
          const nothingWrong = Object.keys(errors).length === 0 && general.length === 0;
          return renderForm(req, reply, pref, nothingWrong ? 200 : status, { values, errors, general, step });
        };
        const tooLong = lengthErrors({ ...submission, card }, m);
        if (Object.keys(tooLong).length > 0) {
          return refused(400, tooLong, []);
        }
        // The checkout's latest order: a card order still open with these same details is the
        // payer's own, posted again (a retry, a back button): its page, and its one intent, again.
        const latest =
          processorCards && pref.paymentOrderId
            ? await deps.orders.getForCheckout(pref.id, pref.paymentOrderId)
            : undefined;
        if (viaProcessor && latest && isSameCardTry(latest, chosen, values, askedPayer(pref))) {
          return seeOther(reply, orderPath(pref.id, latest.id));
        }
        let order: PaymentOrder;
        try {
          // Without card fields a card payment is refused for the card alone once everything else
          // is right, before anything is written: that is when the card step is shown.
          order = await startPayment(pref, values, card, m.locale, merchantSettings.get(req));
        } catch (error) {
          if (!(error instanceof AppError)) {
            throw error;
          }
          if (error.code === 'WRONG_INPUT') {
            const { fields, general } = fieldErrorsFrom(error, m);
            return refused(400, fields, general);
          }
          if (error.code === 'CONFLICT') {
            // Paid or expired meanwhile: say so. Otherwise a charge is running, or too many declines.
            const fresh = await deps.preferences.getForCheckout(pref.id);
            if (fresh?.status !== 'OPEN') {
              return fresh ? closedCheckout(req, reply, fresh, 409) : sendState(req, reply, 404, 'notFound');
            }
            const text = error.messages.some((t) => t.includes('too many declined'))
              ? m.errors.locked
              : error.messages.some((t) => t.includes('already being processed'))
                ? m.errors.inProgress
                : m.errors.generic;
            return refused(409, {}, [text]);
          }
          throw error;
        }
        if (latest?.status === 'OPENED' && latest.paymentMethodType === 'CARD' && latest.id !== order.id) {
          // Superseded by this try: its intent at the processor is canceled now, so a page of it
          // left open cannot pay it (the settle job does it later if the processor is down now).
          await deps.connectors.cards.endIntentOf(latest.id);
        }
        // A card result goes straight to the merchant's page when it has one; everything else shows the order.
        const target = order.status === 'OPENED' ? null : payerRedirectUrl(pref, order);
        return seeOther(reply, target ?? orderPath(pref.id, order.id));
      });

      /** Whether the checkout's cards go through the merchant's own processor (Stripe) rather than the built-in one. */
      // Asked once per request: the form, its refusal and the order page may each want it.
      const processorCardsAsked = new WeakMap<FastifyRequest, Promise<boolean>>();
      const cardsByProcessor = (req: FastifyRequest, pref: CheckoutPreference): Promise<boolean> => {
        let asked = processorCardsAsked.get(req);
        if (!asked) {
          asked = deps.connectors.cards.servesCards(pref.merchantId, pref.mode);
          processorCardsAsked.set(req, asked);
        }
        return asked;
      };

      /** The payer's submission as the payment service takes it: only what the preference lacks. */
      const startPayment = async (
        pref: CheckoutPreference,
        values: FormValues,
        card: CardFields | null,
        language: Locale,
        settings: StoredSettings | undefined,
      ): Promise<PaymentOrder> => {
        const asked = askedPayer(pref);
        return deps.paymentStart.start(pref, {
          ...(settings ? { merchantSettings: settings } : {}),
          paymentMethodId: pref.selectedPaymentMethodId ?? (values.payment_method_id || null),
          payer: {
            email: asked.email ? values.email : null,
            first_name: asked.first_name ? values.first_name : null,
            last_name: asked.last_name ? values.last_name : null,
            phone: asked.phone ? values.phone : null,
          },
          card,
          // A subscription cannot renew a card that was not kept; the form says so before the payer pays.
          saveCard: pref.type === 'SUBSCRIPTION',
          // A subscription's e-mails are written in the language the payer subscribed in.
          language,
        });
      };

      // ---- an order: its panel, its status, the test-mode button --------------------------------

      /** The order of a checkout; with `req`, also whom its payer pays (pages; the status poll needs no payee). */
      const loadOrder = async (
        params: OrderParams,
        req: FastifyRequest | null,
      ): Promise<{ pref: CheckoutPreference; order: PaymentOrder } | undefined> => {
        const pref = req ? await findCheckout(req, params.id) : await deps.preferences.getForCheckout(params.id);
        const order = pref ? await deps.orders.getForCheckout(pref.id, params.orderId) : undefined;
        return pref && order ? { pref, order } : undefined;
      };

      /**
       * The order is over for the payer when it left OPENED, or when its checkout did (expired
       * before the expiry job wrote it): the page then redirects or shows the result.
       */
      const isFinal = (pref: CheckoutPreference, order: PaymentOrder): boolean =>
        order.status !== 'OPENED' || (pref.status !== 'OPEN' && !isRenewal(order));

      scope.get<{ Params: OrderParams }>('/:id/orders/:orderId', hidden, async (req, reply) => {
        const found = await loadOrder(req.params, req);
        if (!found) {
          return sendState(req, reply, 404, 'notFound');
        }
        const { pref } = found;
        let { order } = found;
        if (isFinal(pref, order)) {
          return showOutcome(req, reply, pref, order);
        }
        if (order.paymentMethodType === 'CARD' && !isRenewal(order) && (await cardsByProcessor(req, pref))) {
          return hostedCardStep(req, reply, pref, order);
        }
        if (order.paymentMethodType === 'PIX' && order.instructions === null) {
          // A charge the merchant's PSP has not made yet (it was down, or a crash came between):
          // asked for again now, under the same txid, so it is never a second charge.
          order = await deps.connectors.pix.create(order);
        }
        const ctx = contextOf(req, pref);
        const method = (await deps.paymentMethods.all()).find((candidate) => candidate.id === order.paymentMethodId);
        const methodLabel = method
          ? methodName(method, ctx.messages.locale)
          : ctx.messages.methodTypeNames[order.paymentMethodType];
        const panel = await renderPanel(order, {
          messages: ctx.messages,
          language: payerLanguage(req),
          currencies: deps.currencies,
          methodLabel,
          networkName: method?.network?.name ?? null,
          boleto: isBoleto(method),
        });
        const page = renderOrderPage(ctx, {
          pref,
          // A renewal is paid for its own period, at the price the subscriber bought.
          amountText: isRenewal(order) ? moneyOf(req, order.amountMinor, order.currency) : amountOf(req, pref),
          methodType: order.paymentMethodType,
          methodLabel,
          panel,
          orderUrl: orderPath(pref.id, order.id),
          statusUrl: `${orderPath(pref.id, order.id)}/status`,
          simulate:
            pref.mode === 'test' && order.paymentMethodType !== 'CARD'
              ? { action: `${orderPath(pref.id, order.id)}/simulate`, csrfToken: csrf.tokenFor(req, reply, pref.id) }
              : null,
          chooseAnotherUrl: pref.selectedPaymentMethodId === null && !isRenewal(order) ? checkoutPath(pref.id) : null,
        });
        return sendPage(req, reply, 200, page, pref);
      });

      /**
       * Where Stripe sends the payer back after confirming. The query Stripe adds (the intent, its
       * client secret, a redirect status) is never read: the order's own intent is asked about at
       * Stripe with the merchant's key. A paid order closes here by the same rule as the event
       * (CardSettlement); then the order's page shows what became of it (the merchant's page or
       * the result once paid, the card step again after a decline), and the client secret Stripe
       * put in the address leaves the address bar.
       */
      scope.get<{ Params: OrderParams }>('/:id/orders/:orderId/card/return', hidden, async (req, reply) => {
        const found = await loadOrder(req.params, req);
        if (!found) {
          return sendState(req, reply, 404, 'notFound');
        }
        const { pref, order } = found;
        if (order.paymentMethodType !== 'CARD' || isRenewal(order) || !(await cardsByProcessor(req, pref))) {
          return seeOther(reply, orderPath(pref.id, order.id));
        }
        if (!isFinal(pref, order)) {
          await deps.connectors.cards.step(order);
        }
        return seeOther(reply, orderPath(pref.id, order.id));
      });

      /** The card step of an open order whose card goes through the merchant's Stripe: what Stripe says of its intent. */
      const hostedCardStep = async (
        req: FastifyRequest,
        reply: FastifyReply,
        pref: CheckoutPreference,
        order: PaymentOrder,
      ): Promise<FastifyReply> => {
        const step = await deps.connectors.cards.step(order);
        if (step.kind === 'ended' || step.kind === 'locked') {
          return showOutcome(req, reply, pref, step.order);
        }
        const here = orderPath(pref.id, order.id);
        const ctx = contextOf(req, pref);
        const m = ctx.messages;
        const model: HostedCardModel = {
          pref,
          amountText: amountOf(req, pref),
          state: step.kind,
          stripe: null,
          notice: null,
          retryUrl: here,
          chooseAnotherUrl: pref.selectedPaymentMethodId === null ? checkoutPath(pref.id) : null,
          scriptPath: assets.stripeCard.path,
        };
        if (step.kind === 'processing') {
          const page = renderHostedCard({ ...ctx, refresh: { seconds: PROCESSING_REFRESH_SECONDS, url: here } }, model);
          return sendPage(req, reply, 200, page, pref);
        }
        if (step.kind !== 'pay') {
          // Nothing charged, the order still open: a retry gets the same intent.
          return sendPage(req, reply, step.kind === 'unavailable' ? 503 : 200, renderHostedCard(ctx, model), pref);
        }
        model.stripe = {
          publishableKey: step.publishableKey,
          clientSecret: step.clientSecret,
          intentId: step.intentId,
          returnUrl: `${deps.publicUrl}${cardReturnPath(pref.id, order.id)}`,
          locale: STRIPE_LOCALES[m.locale],
          appearance: JSON.stringify(processorAppearance(ctx.payee ?? null)),
        };
        model.notice = step.payerAction
          ? m.hostedCard.payerAction
          : step.failure
            ? declineText(step.failure.code, m)
            : null;
        return sendPage(req, reply, 200, renderHostedCard(ctx, model), pref, ['stripe']);
      };

      /** A finished order: 303 to the merchant's stored URL when it has one, else the result page. */
      const showOutcome = (
        req: FastifyRequest,
        reply: FastifyReply,
        pref: CheckoutPreference,
        order: PaymentOrder,
      ): FastifyReply => {
        // Instructions replaced by a newer attempt (or a card order that timed out) while the checkout
        // can still be paid: not the end of the payment, so no error redirect, just a way back.
        if (order.status === 'EXPIRED' && pref.status === 'OPEN') {
          return showResult(req, reply, pref, order, 'expired');
        }
        if (order.status === 'OPENED') {
          return pref.status === 'PAID'
            ? closedCheckout(req, reply, pref, 200)
            : showResult(req, reply, pref, order, 'expired');
        }
        const target = payerRedirectUrl(pref, order);
        if (target) {
          return seeOther(reply, target);
        }
        const kind: ResultKind =
          order.status === 'CLOSED'
            ? 'paid'
            : order.status === 'REFUNDED'
              ? 'refunded'
              : order.status === 'REJECTED'
                ? 'failed'
                : 'expired';
        return showResult(req, reply, pref, order, kind);
      };

      const showResult = (
        req: FastifyRequest,
        reply: FastifyReply,
        pref: CheckoutPreference,
        order: PaymentOrder,
        kind: ResultKind,
      ): FastifyReply => {
        const ctx = contextOf(req, pref);
        // The receipt and, for a failure, its reason: no payer, no card, no instructions. This page's
        // URL is where the payer landed, and it stays in their history after the payment is over.
        const page = renderResult(ctx, {
          receipt: receiptOf(pref, amountOf(req, pref)),
          kind,
          detail: kind === 'failed' ? failureText(order.failureCode, ctx.messages) : null,
          tryAgainUrl: pref.status === 'OPEN' && kind !== 'paid' ? checkoutPath(pref.id) : null,
        });
        return sendPage(req, reply, 200, page, pref);
      };

      scope.get<{ Params: OrderParams }>('/:id/orders/:orderId/status', hidden, async (req, reply) => {
        const found = await loadOrder(req.params, null);
        reply.header('content-type', 'application/json; charset=utf-8');
        if (!found) {
          return reply.code(404).send(JSON.stringify({ messages: ['payment order not found'], code: 'NOT_FOUND' }));
        }
        const { pref, order } = found;
        const final = isFinal(pref, order);
        const ins = order.instructions;
        // Only while a crypto order is open (the one panel with a progress line): every other answer keeps
        // its three members. Worded by the page's own function in the page's language (the script has no texts).
        let progress: { progress?: { text: string } | null } = {};
        if (ins?.type === 'CRYPTO_ONCHAIN' && !final) {
          const text = chainProgressText(ins, order.chainProgress, {
            messages: messagesOf(req),
            language: payerLanguage(req),
            currencies: deps.currencies,
          });
          progress = { progress: text === null ? null : { text } };
        }
        return reply
          .code(200)
          .header('vary', 'Accept-Language, Cookie')
          .send(
            JSON.stringify({
              status: order.status,
              final,
              // For polling clients; the page's own script reloads the order page instead, which answers with the 303.
              redirect_url: order.status === 'OPENED' ? null : payerRedirectUrl(pref, order),
              ...progress,
            }),
          );
      });

      scope.post<{ Params: OrderParams }>('/:id/orders/:orderId/simulate', hidden, async (req, reply) => {
        const submission = readSubmission(req.body);
        if (!csrf.check(req, req.params.id, submission.csrfToken)) {
          return sendState(req, reply, 403, 'csrf', null, checkoutLink(req.params.id));
        }
        const found = await loadOrder(req.params, req);
        // Live checkouts have no such button: answer as if the route did not exist.
        if (found?.pref.mode !== 'test') {
          return sendState(req, reply, 404, 'notFound');
        }
        const { pref, order } = found;
        if (order.paymentMethodType === 'CARD') {
          return sendState(req, reply, 409, 'badRequest', pref, checkoutPath(pref.id));
        }
        if (order.status === 'OPENED') {
          try {
            await deps.orderMoves.confirm(order);
          } catch (error) {
            // Already closed or expired meanwhile: the order page shows what really happened.
            if (!(error instanceof AppError && error.code === 'CONFLICT')) {
              throw error;
            }
          }
        }
        return seeOther(reply, orderPath(pref.id, order.id));
      });
    },
    { prefix: '/checkout' },
  );
};

/**
 * A subscription's renewal order: opened by the billing engine after its checkout was PAID, and
 * payable from the link in the renewal e-mail for as long as the order itself is open.
 */
function isRenewal(order: PaymentOrder): boolean {
  return order.periodAttempt !== null;
}

/**
 * Where the language switcher of a page shown in answer to a form post leads: the checkout's own
 * page (a GET of the posted address would not show the same thing). Pages of a GET switch in place.
 */
function switchBase(req: FastifyRequest): string | undefined {
  if (req.method === 'GET' || req.method === 'HEAD') {
    return undefined;
  }
  return /^\/checkout\/[A-Za-z0-9]{22}(?=[/?]|$)/.exec(req.url)?.[0];
}

/**
 * Whether the payer chooses among several methods, a card among them and not the only kind: the
 * form then shows the card fields only once Card is chosen (views/form.view.ts, cardFields).
 */
function offersChoice(pref: CheckoutPreference, methods: readonly PaymentMethod[]): boolean {
  return (
    pref.selectedPaymentMethodId === null &&
    methods.some((method) => method.type === 'CARD') &&
    methods.some((method) => method.type !== 'CARD')
  );
}

/** The errors of the payer's details and method alone: for a page without the card fields. */
function withoutCardErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).filter(([key]) => !CARD_FIELD_NAMES.includes(key as keyof FieldErrors)),
  );
}

/** A way back to a checkout named in a path, only when the id has the shape of an id (it is put in a link). */
function checkoutLink(id: string): string | null {
  return /^[A-Za-z0-9]{22}$/.test(id) ? checkoutPath(id) : null;
}

/** The form values of an earlier attempt: the payer's details and method (the order never holds card data). */
function valuesFromOrder(order: PaymentOrder): FormValues {
  return {
    email: order.payer.email ?? '',
    first_name: order.payer.firstName ?? '',
    last_name: order.payer.lastName ?? '',
    phone: order.payer.phoneNumber ?? '',
    payment_method_id: order.paymentMethodId,
  };
}

/** The Payment Element's locale for the page's language (Cobro's Portuguese is Brazil's). */
const STRIPE_LOCALES: Record<Locale, string> = { en: 'en', es: 'es', pt: 'pt-BR' };

/**
 * A post of the details form that is the same card try as the checkout's open order: the same
 * card method and the same payer details (what the form asks). Its order and intent are reused.
 */
function isSameCardTry(
  latest: PaymentOrder,
  chosen: PaymentMethod | undefined,
  values: FormValues,
  asked: ReturnType<typeof askedPayer>,
): boolean {
  if (latest.status !== 'OPENED' || latest.paymentMethodType !== 'CARD' || latest.paymentMethodId !== chosen?.id) {
    return false;
  }
  const before = valuesFromOrder(latest);
  return (['email', 'first_name', 'last_name', 'phone'] as const).every(
    (field) => !asked[field] || before[field].trim() === values[field].trim(),
  );
}

/** Why a card try failed, in the payer's words: the processor's decline code mapped to our texts, a decline otherwise. */
function declineText(code: string, m: Messages): string {
  return code in m.failure ? m.failure[code as keyof Messages['failure']] : m.failure.card_declined;
}

/** The payer-facing reason of a failed order, localized; processors' own wording stays in the API. */
function failureText(code: string | null, m: Messages): string {
  switch (code) {
    case 'card_declined':
    case 'insufficient_funds':
    case 'processing_error':
    case 'processor_unavailable':
      return m.failure[code];
    default:
      return m.failureGeneric;
  }
}
