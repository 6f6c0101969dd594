import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseSavedCard } from '../../domain/connectors/saved-card.ts';
import type { PaymentOrder } from '../../domain/payment-orders/payment-order.ts';
import { AppError } from '../../domain/shared/errors.ts';
import type { CardField, CardProblem } from '../../domain/subscriptions/payer-portal.service.ts';
import { isTerminal } from '../../domain/subscriptions/recurrent-payment.status.ts';
import type { RecurrentPayment } from '../../domain/subscriptions/recurrent-payment.ts';
import type { Services } from '../../services.ts';
import { loadAssets } from '../kit/assets.ts';
import { registerHtmlErrorPages } from '../kit/error-pages.ts';
import { formField } from '../kit/form-input.ts';
import { methodName } from '../kit/format.ts';
import type { SafeHtml } from '../kit/html.ts';
import { toDocument } from '../kit/html.ts';
import { languageSwitcher, payerLanguage, registerLanguageSwitch } from '../kit/language-switch.ts';
import { formatMoney } from '../kit/money.ts';
import type { Messages } from '../kit/payer-messages.ts';
import { formatDateTime, messagesFor } from '../kit/payer-messages.ts';
import { applySecurityHeaders, CSRF_FIELD, CsrfGuard, registerPageNonces } from '../kit/security.ts';
import { subscriptionMessagesFor } from './messages.ts';
import type { CardForm, CardFormField, ManageModel, SubscriptionPageContext, SubscriptionStateKind } from './views.ts';
import { renderCancelConfirm, renderSubscriptionPage, renderSubscriptionState } from './views.ts';

type IdParams = { id: string };
type PageQuery = { sig?: string; done?: string };

/** Form posts here carry a signature and card fields: anything bigger is not a payer's form. */
const FORM_BODY_LIMIT = 8 * 1024;
const HTML_TYPE = 'text/html; charset=utf-8';
const PREFIX = '/subscriptions';

/** Notices after a redirect, from a closed list: nothing from the query string is ever shown. */
const NOTICES = ['card', 'canceled'] as const;
type NoticeKey = (typeof NOTICES)[number];
const noticeOf = (done: string | undefined): NoticeKey | null => NOTICES.find((key) => key === done) ?? null;

/** Posted card fields and the validator's names for them. */
const FORM_FIELD: Record<CardField, CardFormField> = {
  number: 'card_number',
  expiry: 'card_expiry',
  cvc: 'card_cvc',
  holderName: 'card_holder_name',
};

const MAX_LENGTH: Record<CardFormField, number> = {
  card_number: 40,
  card_expiry: 10,
  card_cvc: 10,
  card_holder_name: 100,
};

const pagePath = (id: string, signature: string, done: string | null = null): string =>
  `${PREFIX}/${id}?sig=${encodeURIComponent(signature)}${done ? `&done=${done}` : ''}`;

/**
 * The payer's subscription page, reached by the signed link in every e-mail about it:
 * `GET /subscriptions/:id?sig=…` shows it, `GET|POST …/cancel` confirms and cancels,
 * `POST …/card` saves another card for the next renewals. An encapsulated plugin with the
 * checkout's security headers, CSRF guard and escaping; a wrong or missing signature is a 404,
 * the same page as an unknown id.
 */
export const subscriptionPages: FastifyPluginAsync<Services> = async (app, deps) => {
  const publicBase = new URL(deps.publicUrl);
  const https = publicBase.protocol === 'https:';
  const csrf = new CsrfGuard(deps.csrfKey, publicBase.origin, https, PREFIX);
  const assets = loadAssets();

  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });

  await app.register(
    async (scope: FastifyInstance) => {
      // 1. Every response gets the checkout's security headers and its own script nonce, errors included.
      const nonceOf = registerPageNonces(scope, https);
      // `?lang=pt` on any page: the payer's choice is remembered, and the page shown again without it.
      registerLanguageSwitch(scope, https);

      /**
       * `base`: where the language switcher of a page shown in answer to a form post leads (the
       * subscription's own page); pages of a GET switch in place.
       */
      const contextOf = (req: FastifyRequest, rec: RecurrentPayment | null, base?: string): SubscriptionPageContext => {
        const messages = messagesFor(payerLanguage(req).locale);
        const t = subscriptionMessagesFor(messages.locale);
        return {
          messages,
          t,
          nonce: nonceOf(req),
          assets: { css: assets.css.path, js: assets.js.path },
          testMode: rec?.mode === 'test',
          switcher: languageSwitcher(req, messages.locale, base),
          siteName: t.siteName,
        };
      };

      const sendPage = (req: FastifyRequest, reply: FastifyReply, status: number, page: SafeHtml): FastifyReply => {
        applySecurityHeaders(reply, { nonce: nonceOf(req), https });
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
        kind: SubscriptionStateKind,
        backUrl: string | null = null,
      ): FastifyReply => sendPage(req, reply, status, renderSubscriptionState(contextOf(req, null), kind, backUrl));

      /**
       * What every form post starts with: the CSRF check, then the signed lookup. Nothing is looked
       * up for a post that is not from our own page with this browser's token. Null when an error
       * page has been sent instead.
       */
      const formTarget = async (
        req: FastifyRequest<{ Params: IdParams }>,
        reply: FastifyReply,
      ): Promise<{ rec: RecurrentPayment; signature: string } | null> => {
        const signature = formField(req.body, 'sig');
        const token = formField(req.body, CSRF_FIELD);
        if (!csrf.check(req, req.params.id, token === '' ? null : token)) {
          sendState(req, reply, 403, 'csrf');
          return null;
        }
        const rec = await deps.payerPortal.open(req.params.id, signature);
        if (!rec) {
          sendState(req, reply, 404, 'notFound');
          return null;
        }
        return { rec, signature };
      };

      /** 303 See Other: after a form post the browser follows with a GET (no re-post on reload). */
      const seeOther = (reply: FastifyReply, location: string): FastifyReply =>
        reply.code(303).header('location', location).send();

      // 2. Errors and unknown paths answer with HTML pages, never the API's JSON.
      registerHtmlErrorPages(scope, 'subscription page', (req, reply, status, kind) =>
        sendState(req, reply, status, kind),
      );

      const hidden = { schema: { hide: true } };

      // ---- the page ---------------------------------------------------------------------------

      const moneyOf = (req: FastifyRequest, amountMinor: bigint, currency: string): string =>
        formatMoney(amountMinor, currency, deps.currencies, payerLanguage(req));

      const priceOf = (req: FastifyRequest, ctx: SubscriptionPageContext, rec: RecurrentPayment): string =>
        ctx.t.pricePer(moneyOf(req, rec.amountMinor, rec.currency), rec.intervalType);

      /** The method by name ("Cartão", "PIX", "USDT en Ethereum"), nothing of the payer's own card. */
      const methodNameOf = async (rec: RecurrentPayment, m: Messages): Promise<string> => {
        if (rec.paymentMethodType === 'CARD') {
          return m.methodTypeNames.CARD;
        }
        const method = (await deps.paymentMethods.all()).find((candidate) => candidate.id === rec.paymentMethodId);
        return method ? methodName(method, m.locale) : m.methodTypeNames[rec.paymentMethodType];
      };

      /** The saved card, brand and last four ("Visa ending in 4242"); null before one is saved. */
      const cardTextOf = (rec: RecurrentPayment, m: Messages): string | null => {
        if (rec.paymentMethodType !== 'CARD' || !rec.cardBrand || !rec.cardLast4) {
          return null;
        }
        const brand = rec.cardBrand.charAt(0) + rec.cardBrand.slice(1).toLowerCase();
        return m.cardUsed(brand, rec.cardLast4);
      };

      const nextOf = (ctx: SubscriptionPageContext, rec: RecurrentPayment): { label: string; date: string } | null => {
        if (rec.nextPaymentDate === null || isTerminal(rec.status)) {
          return null;
        }
        const date = formatDateTime(rec.nextPaymentDate, ctx.messages);
        if (rec.status === 'UNPAID') {
          return { label: ctx.t.nextTry, date };
        }
        if (rec.intervalCount !== null && rec.periodsPaid >= rec.intervalCount) {
          return { label: ctx.t.endsOn, date };
        }
        return { label: rec.status === 'TRIALING' ? ctx.t.firstPayment : ctx.t.nextPayment, date };
      };

      const renderPage = async (
        req: FastifyRequest,
        reply: FastifyReply,
        rec: RecurrentPayment,
        signature: string,
        status: number,
        extra: {
          notice?: keyof SubscriptionPageContext['t']['notices'] | null;
          cardErrors?: CardForm['errors'];
          general?: readonly string[];
        } = {},
      ): Promise<FastifyReply> => {
        // A page shown in answer to a form post switches language on the subscription's own page.
        const ctx = contextOf(req, rec, pagePath(rec.id, signature));
        const { t } = ctx;
        const page = renderSubscriptionPage(ctx, {
          title: rec.title,
          status: rec.status,
          statusText: t.statuses[rec.status],
          priceText: priceOf(req, ctx, rec),
          durationText: rec.intervalCount === null ? t.untilCanceled : t.payments(rec.intervalCount, rec.intervalType),
          trialText:
            rec.trialIntervalCount > 0 && rec.trialIntervalType
              ? t.duration(rec.trialIntervalCount, rec.trialIntervalType)
              : null,
          signupFeeText: rec.signupFeeMinor > 0n ? moneyOf(req, rec.signupFeeMinor, rec.currency) : null,
          periodsText:
            rec.intervalCount === null ? String(rec.periodsPaid) : t.periodsOf(rec.periodsPaid, rec.intervalCount),
          reference: rec.externalId,
          methodName: await methodNameOf(rec, ctx.messages),
          notice: extra.notice ? t.notices[extra.notice] : null,
          // An ended subscription's page gets no subscriber, card or actions at all: its link lives on in old e-mails.
          manage: isTerminal(rec.status) ? null : await manageOf(req, reply, ctx, rec, signature, extra),
        });
        return sendPage(req, reply, status, page);
      };

      /** What only a subscription still in use shows: who subscribes, the card, what comes next, the actions. */
      const manageOf = async (
        req: FastifyRequest,
        reply: FastifyReply,
        ctx: SubscriptionPageContext,
        rec: RecurrentPayment,
        signature: string,
        extra: { cardErrors?: CardForm['errors']; general?: readonly string[] },
      ): Promise<ManageModel> => {
        const renewal: PaymentOrder | undefined = await deps.payerPortal.payableRenewal(rec);
        return {
          next: nextOf(ctx, rec),
          currentPeriod:
            rec.currentPeriodStart !== null && rec.currentPeriodEnd !== null
              ? ctx.t.period(
                  formatDateTime(rec.currentPeriodStart, ctx.messages),
                  formatDateTime(rec.currentPeriodEnd, ctx.messages),
                )
              : null,
          cardText: cardTextOf(rec, ctx.messages),
          payerText: rec.payer.email,
          payNowUrl: renewal ? `/checkout/${rec.checkoutPreferenceId}/orders/${renewal.id}` : null,
          // A card kept at the merchant's own processor is not typed into a form of Cobro's.
          cardForm:
            rec.paymentMethodType === 'CARD' && !parseSavedCard(rec.cardToken)
              ? {
                  action: `${PREFIX}/${rec.id}/card`,
                  csrfToken: csrf.tokenFor(req, reply, rec.id),
                  signature,
                  errors: extra.cardErrors ?? {},
                  general: extra.general ?? [],
                }
              : null,
          cancelUrl: `${PREFIX}/${rec.id}/cancel?sig=${encodeURIComponent(signature)}`,
        };
      };

      scope.get<{ Params: IdParams; Querystring: PageQuery }>('/:id', hidden, async (req, reply) => {
        const signature = req.query.sig ?? '';
        const rec = await deps.payerPortal.open(req.params.id, signature);
        if (!rec) {
          return sendState(req, reply, 404, 'notFound');
        }
        return renderPage(req, reply, rec, signature, 200, { notice: noticeOf(req.query.done) });
      });

      // ---- cancelling -------------------------------------------------------------------------

      scope.get<{ Params: IdParams; Querystring: PageQuery }>('/:id/cancel', hidden, async (req, reply) => {
        const signature = req.query.sig ?? '';
        const rec = await deps.payerPortal.open(req.params.id, signature);
        if (!rec) {
          return sendState(req, reply, 404, 'notFound');
        }
        if (isTerminal(rec.status)) {
          return seeOther(reply, pagePath(rec.id, signature));
        }
        const ctx = contextOf(req, rec);
        const page = renderCancelConfirm(ctx, {
          title: rec.title,
          priceText: priceOf(req, ctx, rec),
          action: `${PREFIX}/${rec.id}/cancel`,
          csrfToken: csrf.tokenFor(req, reply, rec.id),
          signature,
          backUrl: pagePath(rec.id, signature),
        });
        return sendPage(req, reply, 200, page);
      });

      scope.post<{ Params: IdParams }>('/:id/cancel', hidden, async (req, reply) => {
        const target = await formTarget(req, reply);
        if (!target) {
          return reply;
        }
        const { rec, signature } = target;
        try {
          await deps.payerPortal.cancel(rec.id, signature);
        } catch (error) {
          if (error instanceof AppError && error.code === 'CONFLICT') {
            // Completed, or ended some other way meanwhile: the page shows what really happened.
            const fresh = (await deps.payerPortal.open(rec.id, signature)) ?? rec;
            return renderPage(req, reply, fresh, signature, 409, { notice: 'cannotCancel' });
          }
          throw error;
        }
        return seeOther(reply, pagePath(rec.id, signature, 'canceled'));
      });

      // ---- changing the card ------------------------------------------------------------------

      scope.post<{ Params: IdParams }>('/:id/card', hidden, async (req, reply) => {
        const target = await formTarget(req, reply);
        if (!target) {
          return reply;
        }
        const { rec, signature } = target;
        const typed = {
          card_number: formField(req.body, 'card_number'),
          card_expiry: formField(req.body, 'card_expiry'),
          card_cvc: formField(req.body, 'card_cvc'),
          card_holder_name: formField(req.body, 'card_holder_name'),
        };
        const m = messagesFor(payerLanguage(req).locale);
        const tooLong: CardForm['errors'] = {};
        for (const key of Object.keys(typed) as CardFormField[]) {
          if ([...typed[key]].length > MAX_LENGTH[key]) {
            tooLong[key] = m.errors.tooLong;
          }
        }
        if (Object.keys(tooLong).length > 0) {
          return renderPage(req, reply, rec, signature, 400, { cardErrors: tooLong });
        }
        let outcome: Awaited<ReturnType<typeof deps.payerPortal.changeCard>>;
        try {
          outcome = await deps.payerPortal.changeCard(rec.id, signature, {
            number: typed.card_number,
            expiry: typed.card_expiry,
            cvc: typed.card_cvc,
            holderName: typed.card_holder_name,
          });
        } catch (error) {
          if (error instanceof AppError && error.code === 'CONFLICT') {
            const fresh = (await deps.payerPortal.open(rec.id, signature)) ?? rec;
            return renderPage(req, reply, fresh, signature, 409, { notice: 'cannotChangeCard' });
          }
          throw error;
        }
        if (!outcome) {
          return sendState(req, reply, 404, 'notFound');
        }
        if (!outcome.ok) {
          const { errors, general } = toFormErrors(outcome.problems, m);
          return renderPage(req, reply, rec, signature, 400, { cardErrors: errors, general });
        }
        return seeOther(reply, pagePath(rec.id, signature, 'card'));
      });
    },
    { prefix: PREFIX },
  );
};

/**
 * The service's problems beside their form fields, in the page's language (the service's own
 * words are English, for the API); those naming no field go above the form.
 */
function toFormErrors(
  problems: readonly CardProblem[],
  m: Messages,
): { errors: CardForm['errors']; general: string[] } {
  const errors: CardForm['errors'] = {};
  const general: string[] = [];
  for (const p of problems) {
    if (p.field) {
      errors[FORM_FIELD[p.field]] ??= fieldProblem(p.field, p, m);
    } else {
      const known = p.code !== null && Object.hasOwn(m.failure, p.code);
      general.push(known ? m.failure[p.code as keyof Messages['failure']] : m.failure.card_declined);
    }
  }
  return { errors, general: [...new Set(general)] };
}

function fieldProblem(field: CardField, problem: CardProblem, m: Messages): string {
  switch (field) {
    case 'number':
      return m.errors.cardNumberInvalid;
    case 'expiry':
      return problem.code === 'expired_card' || /expired/i.test(problem.message)
        ? m.errors.cardExpired
        : m.errors.cardExpiryInvalid;
    case 'cvc':
      return m.errors.cardCvcInvalid;
    case 'holderName':
      return m.errors.cardHolderInvalid;
  }
}
