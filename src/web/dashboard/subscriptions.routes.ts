import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { PaymentOrder } from '../../domain/payment-orders/payment-order.ts';
import { AppError } from '../../domain/shared/errors.ts';
import { formatMinor, parseDecimal } from '../../domain/shared/money.ts';
import type { PageCursor, PageRequest } from '../../domain/shared/page.ts';
import { periodBounds } from '../../domain/subscriptions/billing-schedule.ts';
import type { CreatePaymentLinkInput } from '../../domain/subscriptions/payment-link.service.ts';
import type { IntervalType, PaymentLink } from '../../domain/subscriptions/payment-link.ts';
import { INTERVAL_TYPES } from '../../domain/subscriptions/payment-link.ts';
import type { RecurrentPaymentStatus } from '../../domain/subscriptions/recurrent-payment.status.ts';
import { canTransition, RECURRENT_PAYMENT_STATUSES } from '../../domain/subscriptions/recurrent-payment.status.ts';
import type { RecurrentPayment } from '../../domain/subscriptions/recurrent-payment.ts';
import { qrSvg } from '../../providers/shared/qr.ts';
import { formField } from '../checkout/form-input.ts';
import type { SafeHtml } from '../checkout/html.ts';
import { html } from '../checkout/html.ts';
import { planLinkUrl } from '../links/plan-link-url.ts';
import { callerOf } from './caller.ts';
import type { DashContext, DashTools } from './dash-tools.ts';
import { formatMoney, t as tr } from './i18n.ts';
import type {
  MoneyFormat,
  PeriodRow,
  PlanFormErrors,
  PlanFormField,
  PlanFormValues,
} from './views/subscriptions.views.ts';
import {
  archivePage,
  cancelPage,
  EMPTY_PLAN_FORM,
  NO_ERRORS,
  planFormPage,
  planListPage,
  planPage,
  subscriberListPage,
  subscriberPage,
  time,
} from './views/subscriptions.views.ts';

const PAGE_SIZE = 50;
/** Plans offered in the subscriber list's plan filter (a plan id further down still filters by URL). */
const PLAN_CHOICES = 100;
/** The subscriber page shows the latest periods; the charges table pages through all of them. */
const PERIODS_SHOWN = 24;

type Req = FastifyRequest;
type Reply = FastifyReply;
type IdParams = { Params: { id: string } };

// ---- small helpers ------------------------------------------------------------------------------

/** A page cursor in a link: the last row's (created_at, id), as the API's next_cursor. */
function encodeAfter(cursor: PageCursor | null): string | null {
  return cursor ? Buffer.from(`${cursor.createdAt}.${cursor.id}`).toString('base64url') : null;
}

function parseAfter(value: unknown, name = 'after'): PageCursor | null {
  if (typeof value !== 'string' || value === '') {
    return null;
  }
  const m = /^(\d{1,16})\.([A-Za-z0-9]{22})$/.exec(Buffer.from(value.slice(0, 200), 'base64url').toString('utf8'));
  if (!m?.[1] || !m[2]) {
    throw new AppError('WRONG_INPUT', [`${name} must be the link of a previous page`]);
  }
  return { createdAt: Number(m[1]), id: m[2] };
}

/** `?limit=` (1 to 100, as the API's), else a page of PAGE_SIZE. */
function pageLimit(req: Req): number {
  const text = queryText(req, 'limit');
  if (text === '') {
    return PAGE_SIZE;
  }
  const n = /^\d{1,3}$/.test(text) ? Number(text) : 0;
  if (n < 1 || n > 100) {
    throw new AppError('WRONG_INPUT', ['limit must be a whole number from 1 to 100']);
  }
  return n;
}

function query(req: Req): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

const queryText = (req: Req, name: string): string => {
  const value = query(req)[name];
  return typeof value === 'string' ? value : '';
};

function moneyOf(t: DashTools, ctx: DashContext): MoneyFormat {
  return (minor, currency) => formatMoney(minor, currency, t.deps.currencies.get(currency)?.decimals ?? 2, ctx.m);
}

/** A URL with its query: empty values left out. */
function withQuery(path: string, params: Record<string, string | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v) {
      q.set(k, v);
    }
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

// ---- the plan form ------------------------------------------------------------------------------

const FIELD_LABELS: readonly [string, PlanFormField, string][] = [
  // Longest names first: `signup_fee_amount` before `amount`, the trial pair before either of its members.
  ['trial_interval_type and trial_interval_count', 'trial_interval_count', 'Trial length and trial unit'],
  ['signup_fee_amount', 'signup_fee_amount', 'Sign-up fee'],
  ['trial_interval_count', 'trial_interval_count', 'Trial length'],
  ['trial_interval_type', 'trial_interval_type', 'Trial unit'],
  ['interval_count', 'interval_count', 'Number of periods'],
  ['interval_type', 'interval_type', 'Billed every'],
  ['currency', 'currency', 'Currency'],
  ['amount', 'amount', 'Amount per period'],
  ['title', 'title', 'Title'],
];

function readPlanForm(body: unknown): PlanFormValues {
  // The browser's maxlength is advisory; a value is cut to a length no valid input exceeds.
  const field = (name: PlanFormField, max: number) => formField(body, name).trim().slice(0, max);
  return {
    title: formField(body, 'title').slice(0, 1000),
    amount: field('amount', 40),
    currency: field('currency', 10),
    interval_type: field('interval_type', 10),
    interval_count: field('interval_count', 10),
    trial_interval_type: field('trial_interval_type', 10),
    trial_interval_count: field('trial_interval_count', 10),
    signup_fee_amount: field('signup_fee_amount', 40),
  };
}

function addError(errors: PlanFormErrors, key: PlanFormField, message: string): void {
  errors.fields[key] = [...(errors.fields[key] ?? []), message];
}

/** `9.99` or `9,99` → 9.99; null when it is not a plain decimal number. */
function parseAmount(text: string): number | null {
  const normalized = /^\d+,\d+$/.test(text) ? text.replace(',', '.') : text;
  if (!/^\d+(\.\d+)?$/.test(normalized) || !parseDecimal(normalized)) {
    return null;
  }
  const value = Number(normalized);
  return Number.isFinite(value) ? value : null;
}

function parseCount(text: string, min: number): number | null | 'invalid' {
  if (text === '') {
    return null;
  }
  if (!/^\d{1,4}$/.test(text)) {
    return 'invalid';
  }
  const n = Number(text);
  return n >= min && n <= 1000 ? n : 'invalid';
}

const isInterval = (value: string): value is IntervalType => (INTERVAL_TYPES as readonly string[]).includes(value);

/**
 * The form's text as the service's input, with what the API's schema checks before the service
 * (types, ranges, lengths); the plan's rules themselves (amount bounds, currency, the trial pair)
 * are the service's, reported by {@link serviceErrors}.
 */
function toPlanInput(v: PlanFormValues): { input: Omit<CreatePaymentLinkInput, 'externalId'>; errors: PlanFormErrors } {
  const errors: PlanFormErrors = { fields: {}, general: [] };
  if ([...v.title].length > 255) {
    addError(errors, 'title', tr('Title must be at most 255 characters.'));
  }
  const amount = v.amount === '' ? null : parseAmount(v.amount);
  if (v.amount === '') {
    addError(errors, 'amount', tr('Amount per period is required.'));
  } else if (amount === null) {
    addError(errors, 'amount', tr('Amount per period must be a number, like 9.99.'));
  }
  if (!isInterval(v.interval_type)) {
    addError(errors, 'interval_type', tr('Billed every must be a day, a week, a month or a year.'));
  }
  const intervalCount = parseCount(v.interval_count, 1);
  if (intervalCount === 'invalid') {
    addError(errors, 'interval_count', tr('Number of periods must be a whole number from 1 to 1000, or empty.'));
  }
  if (v.trial_interval_type !== '' && !isInterval(v.trial_interval_type)) {
    addError(errors, 'trial_interval_type', tr('Trial unit must be days, weeks, months or years.'));
  }
  const trialCount = parseCount(v.trial_interval_count, 0);
  if (trialCount === 'invalid') {
    addError(errors, 'trial_interval_count', tr('Trial length must be a whole number from 0 to 1000, or empty.'));
  }
  const fee = v.signup_fee_amount === '' ? null : parseAmount(v.signup_fee_amount);
  if (v.signup_fee_amount !== '' && fee === null) {
    addError(errors, 'signup_fee_amount', tr('Sign-up fee must be a number, like 5.00, or empty.'));
  }
  return {
    input: {
      title: v.title,
      amount: amount ?? 0,
      currency: v.currency,
      intervalType: isInterval(v.interval_type) ? v.interval_type : 'MONTH',
      intervalCount: intervalCount === 'invalid' ? null : intervalCount,
      trialIntervalType: isInterval(v.trial_interval_type) ? v.trial_interval_type : null,
      trialIntervalCount: trialCount === 'invalid' ? null : trialCount,
      signupFeeAmount: fee,
    },
    errors,
  };
}

const hasErrors = (e: PlanFormErrors) => e.general.length > 0 || Object.keys(e.fields).length > 0;

/** The service's WRONG_INPUT messages (each starts with the wire field) next to the form's fields. */
function serviceErrors(error: AppError): PlanFormErrors {
  const errors: PlanFormErrors = { fields: {}, general: [] };
  for (const message of error.messages) {
    const match = FIELD_LABELS.find(([wire]) => message.startsWith(`${wire} `));
    if (match) {
      const [wire, key, label] = match;
      const text = `${label}${message.slice(wire.length)}`;
      addError(errors, key, /[.)]$/.test(text) ? text : `${text}.`);
    } else {
      errors.general.push(message);
    }
  }
  return errors;
}

function formValuesOf(plan: PaymentLink, decimals: number): PlanFormValues {
  return {
    title: plan.title,
    amount: formatMinor(plan.amountMinor, decimals),
    currency: plan.currency,
    interval_type: plan.intervalType,
    interval_count: plan.intervalCount === null ? '' : String(plan.intervalCount),
    trial_interval_type: plan.trialIntervalType ?? '',
    trial_interval_count: plan.trialIntervalType ? String(plan.trialIntervalCount) : '',
    signup_fee_amount: plan.signupFeeMinor > 0n ? formatMinor(plan.signupFeeMinor, decimals) : '',
  };
}

// ---- the routes -----------------------------------------------------------------------------------

/**
 * Subscriptions: plans (payment links) and subscribers (recurrent payments). Every read and
 * change goes through PaymentLinkService and SubscriptionService, as the API's routes do; the
 * figures (subscribers, MRR) are aggregate queries of DashboardStatsService.
 */
export function registerSubscriptionRoutes(scope: FastifyInstance, t: DashTools, mode: Mode, base: string): void {
  const { deps } = t;
  const stats = () => deps.dashboard.stats;

  // ---- plans ------------------------------------------------------------------------------------

  scope.get(`${base}/payment_links`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    return ctx ? t.seeOther(reply, `${base}/subscriptions`) : reply;
  });

  scope.get(`${base}/subscriptions`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const statusText = queryText(req, 'status');
    if (statusText !== '' && statusText !== 'ACTIVE' && statusText !== 'ARCHIVED') {
      throw new AppError('WRONG_INPUT', ['status must be ACTIVE or ARCHIVED']);
    }
    const status = statusText as 'ACTIVE' | 'ARCHIVED' | '';
    const page = await deps.paymentLinks.list(
      callerOf(ctx),
      { limit: pageLimit(req), cursor: parseAfter(query(req).after) },
      status ? { status } : {},
    );
    const figures = await stats().planFigures(
      ctx.merchantId,
      ctx.mode,
      page.data.map((p) => p.id),
    );
    const after = encodeAfter(page.next);
    return t.sendShell(
      req,
      reply,
      ctx,
      'subscriptions',
      'Subscriptions',
      planListPage({
        base,
        canWrite: ctx.can('plans.write'),
        money: moneyOf(t, ctx),
        rows: page.data.map((plan) => ({ plan, figures: figures.get(plan.id) })),
        status,
        nextHref: after ? withQuery(`${base}/subscriptions`, { status, limit: queryText(req, 'limit'), after }) : null,
        notice: null,
      }),
    );
  });

  const sendPlanForm = (
    req: Req,
    reply: Reply,
    ctx: DashContext,
    values: PlanFormValues,
    errors: PlanFormErrors,
    editing: PaymentLink | null,
    status = 200,
  ) =>
    t.sendShell(
      req,
      reply,
      ctx,
      'subscriptions',
      editing ? tr('Edit {title}', { title: editing.title }) : tr('New plan'),
      planFormPage({
        action: editing ? `${base}/payment_links/${editing.id}/edit` : `${base}/payment_links`,
        csrf: t.csrfToken(req, reply),
        values,
        errors,
        currencies: deps.currencies.all(),
        editing: editing ? { plan: editing, nextVersion: editing.version + 1 } : null,
        cancelHref: editing ? `${base}/payment_links/${editing.id}` : `${base}/subscriptions`,
      }),
      status,
    );

  scope.get(`${base}/payment_links/new`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'plans.write');
    if (!ctx) {
      return reply;
    }
    return sendPlanForm(req, reply, ctx, EMPTY_PLAN_FORM, NO_ERRORS, null);
  });

  scope.post(`${base}/payment_links`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'plans.write');
    if (!ctx) {
      return reply;
    }
    const values = readPlanForm(req.body);
    const parsed = toPlanInput(values);
    if (hasErrors(parsed.errors)) {
      return sendPlanForm(req, reply, ctx, values, parsed.errors, null, 400);
    }
    let plan: PaymentLink;
    try {
      plan = await deps.paymentLinks.create(callerOf(ctx), { ...parsed.input, externalId: null });
    } catch (error) {
      if (error instanceof AppError && error.code === 'WRONG_INPUT') {
        return sendPlanForm(req, reply, ctx, values, serviceErrors(error), null, 400);
      }
      throw error;
    }
    await deps.dashboard.audit.record(ctx.actor, {
      merchantId: ctx.merchantId,
      action: 'payment_link.create',
      objectType: 'payment_link',
      objectId: plan.id,
      detail: { mode: ctx.mode, title: plan.title, version: plan.version },
    });
    return t.seeOther(reply, `${base}/payment_links/${plan.id}?created=1`);
  });

  scope.get<IdParams>(`${base}/payment_links/:id`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const plan = await deps.paymentLinks.get(caller, req.params.id);
    const [figures, subscribers] = await Promise.all([
      stats().planFigures(ctx.merchantId, ctx.mode, [plan.id]),
      deps.subscriptions.list(caller, { limit: 20, cursor: null }, { paymentLinkId: plan.id }),
    ]);
    const publicLink = planLinkUrl(deps.publicUrl, plan.id);
    const q = query(req);
    const notice =
      q.created !== undefined
        ? tr('Plan created. Share its public link, or use its id as payment_link_id in the API.')
        : q.saved !== undefined
          ? tr('Saved as version {version}. Current subscribers keep their terms.', { version: plan.version })
          : q.unchanged !== undefined
            ? tr('Nothing changed: the plan keeps its version.')
            : q.archived !== undefined
              ? tr('Plan archived.')
              : null;
    return t.sendShell(
      req,
      reply,
      ctx,
      'subscriptions',
      plan.title,
      planPage({
        base,
        canWrite: ctx.can('plans.write'),
        money: moneyOf(t, ctx),
        plan,
        figures: figures.get(plan.id),
        publicLink,
        qr: await qrSvg(publicLink, tr('QR code of the link to {title}', { title: plan.title })),
        subscribers: subscribers.data,
        moreSubscribers: subscribers.hasMore,
        notice,
      }),
    );
  });

  scope.get<IdParams>(`${base}/payment_links/:id/edit`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'plans.write');
    if (!ctx) {
      return reply;
    }
    const plan = await deps.paymentLinks.get(callerOf(ctx), req.params.id);
    if (plan.status !== 'ACTIVE') {
      return sendArchivedNotice(req, reply, ctx, plan);
    }
    const decimals = deps.currencies.get(plan.currency)?.decimals ?? 2;
    return sendPlanForm(req, reply, ctx, formValuesOf(plan, decimals), NO_ERRORS, plan);
  });

  const sendArchivedNotice = (req: Req, reply: Reply, ctx: DashContext, plan: PaymentLink) =>
    t.sendShell(
      req,
      reply,
      ctx,
      'subscriptions',
      plan.title,
      html`<h1>${plan.title}</h1><p data-test="archived-notice">${tr('This plan is archived and can no longer be edited. Create a new plan instead.')}</p>
<p><a href="${base}/payment_links/${plan.id}">${tr('Back to the plan')}</a></p>`,
      409,
    );

  scope.post<IdParams>(`${base}/payment_links/:id/edit`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'plans.write');
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const current = await deps.paymentLinks.get(caller, req.params.id);
    if (current.status !== 'ACTIVE') {
      return sendArchivedNotice(req, reply, ctx, current);
    }
    const values = { ...readPlanForm(req.body), currency: current.currency };
    const parsed = toPlanInput(values);
    if (hasErrors(parsed.errors)) {
      return sendPlanForm(req, reply, ctx, values, parsed.errors, current, 400);
    }
    if (formField(req.body, 'version') !== String(current.version)) {
      // Someone saved the plan after this form was opened: show the form again rather than overwrite.
      return sendPlanForm(
        req,
        reply,
        ctx,
        values,
        {
          fields: {},
          general: [
            tr(
              'This plan was changed while you were editing it: it is now at version {version}. Check the values and save again.',
              { version: current.version },
            ),
          ],
        },
        current,
        409,
      );
    }
    const p = parsed.input;
    let updated: PaymentLink;
    try {
      updated = await deps.paymentLinks.update(caller, current.id, {
        title: p.title,
        amount: p.amount,
        intervalType: p.intervalType,
        intervalCount: p.intervalCount,
        trialIntervalType: p.trialIntervalType,
        trialIntervalCount: p.trialIntervalCount,
        signupFeeAmount: p.signupFeeAmount,
      });
    } catch (error) {
      if (error instanceof AppError && (error.code === 'WRONG_INPUT' || error.code === 'CONFLICT')) {
        const errors =
          error.code === 'WRONG_INPUT' ? serviceErrors(error) : { fields: {}, general: [...error.messages] };
        return sendPlanForm(req, reply, ctx, values, errors, current, error.status);
      }
      throw error;
    }
    if (updated.version === current.version) {
      return t.seeOther(reply, `${base}/payment_links/${updated.id}?unchanged=1`);
    }
    await deps.dashboard.audit.record(ctx.actor, {
      merchantId: ctx.merchantId,
      action: 'payment_link.update',
      objectType: 'payment_link',
      objectId: updated.id,
      detail: { mode: ctx.mode, from_version: current.version, to_version: updated.version },
    });
    return t.seeOther(reply, `${base}/payment_links/${updated.id}?saved=1`);
  });

  scope.get<IdParams>(`${base}/payment_links/:id/archive`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'plans.write');
    if (!ctx) {
      return reply;
    }
    const plan = await deps.paymentLinks.get(callerOf(ctx), req.params.id);
    return t.sendShell(
      req,
      reply,
      ctx,
      'subscriptions',
      tr('Archive {title}', { title: plan.title }),
      archivePage({ base, csrf: t.csrfToken(req, reply), plan, problem: null }),
    );
  });

  scope.post<IdParams>(`${base}/payment_links/:id/archive`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'plans.write');
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const before = await deps.paymentLinks.get(caller, req.params.id);
    const archived = await deps.paymentLinks.archive(caller, before.id);
    if (before.status !== 'ARCHIVED') {
      await deps.dashboard.audit.record(ctx.actor, {
        merchantId: ctx.merchantId,
        action: 'payment_link.archive',
        objectType: 'payment_link',
        objectId: archived.id,
        detail: { mode: ctx.mode, version: archived.version },
      });
    }
    return t.seeOther(reply, `${base}/payment_links/${archived.id}?archived=1`);
  });

  // ---- subscribers -------------------------------------------------------------------------------

  scope.get(`${base}/recurrent_payments`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const status = queryText(req, 'status');
    if (status !== '' && !(RECURRENT_PAYMENT_STATUSES as readonly string[]).includes(status)) {
      throw new AppError('WRONG_INPUT', [`status must be one of ${RECURRENT_PAYMENT_STATUSES.join(', ')}`]);
    }
    const plan = queryText(req, 'plan');
    if (plan !== '' && !/^[A-Za-z0-9]{1,64}$/.test(plan)) {
      throw new AppError('WRONG_INPUT', ['plan must be a plan id']);
    }
    const caller = callerOf(ctx);
    const [page, plans] = await Promise.all([
      deps.subscriptions.list(
        caller,
        { limit: pageLimit(req), cursor: parseAfter(query(req).after) },
        {
          ...(status ? { status: status as RecurrentPaymentStatus } : {}),
          ...(plan ? { paymentLinkId: plan } : {}),
        },
      ),
      deps.paymentLinks.list(caller, { limit: PLAN_CHOICES, cursor: null }, {}),
    ]);
    const after = encodeAfter(page.next);
    return t.sendShell(
      req,
      reply,
      ctx,
      'subscriptions',
      tr('Subscribers'),
      subscriberListPage({
        base,
        money: moneyOf(t, ctx),
        rows: page.data,
        status: status as RecurrentPaymentStatus | '',
        plan,
        plans: plans.data,
        nextHref: after
          ? withQuery(`${base}/recurrent_payments`, { status, plan, limit: queryText(req, 'limit'), after })
          : null,
      }),
    );
  });

  scope.get<IdParams>(`${base}/recurrent_payments/:id`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const rec = await deps.subscriptions.get(caller, req.params.id);
    const chargesPage: PageRequest = {
      limit: PAGE_SIZE,
      cursor: parseAfter(query(req).charges_after, 'charges_after'),
    };
    const charges = await deps.orders.list(caller, chargesPage, { recurrentPaymentId: rec.id });
    const chargesAfter = encodeAfter(charges.next);
    return t.sendShell(
      req,
      reply,
      ctx,
      'subscriptions',
      tr('Subscription {id}', { id: rec.id }),
      subscriberPage({
        base,
        money: moneyOf(t, ctx),
        rec,
        canCancel: ctx.can('payments.write'),
        cancellable: canTransition(rec.status, 'CANCELED'),
        ...periodsOf(rec, charges.data),
        charges: charges.data,
        chargesNextHref: chargesAfter
          ? withQuery(`${base}/recurrent_payments/${rec.id}`, { charges_after: chargesAfter })
          : null,
        dunning: dunningOf(rec, deps.subscriptions.dunningPolicy()),
        notice:
          query(req).canceled !== undefined ? tr('Subscription cancelled. No further payment will be charged.') : null,
      }),
    );
  });

  const sendCancelPage = (
    req: Req,
    reply: Reply,
    ctx: DashContext,
    rec: RecurrentPayment,
    problem: string | null,
    status = 200,
  ) =>
    t.sendShell(
      req,
      reply,
      ctx,
      'subscriptions',
      tr('Cancel subscription'),
      cancelPage({
        base,
        csrf: t.csrfToken(req, reply),
        money: moneyOf(t, ctx),
        rec,
        cancellable: canTransition(rec.status, 'CANCELED'),
        problem,
      }),
      status,
    );

  scope.get<IdParams>(`${base}/recurrent_payments/:id/cancel`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'payments.write');
    if (!ctx) {
      return reply;
    }
    const rec = await deps.subscriptions.get(callerOf(ctx), req.params.id);
    return sendCancelPage(req, reply, ctx, rec, null);
  });

  scope.post<IdParams>(`${base}/recurrent_payments/:id/cancel`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'payments.write');
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const before = await deps.subscriptions.get(caller, req.params.id);
    let canceled: RecurrentPayment;
    try {
      // The API's DELETE /v1/recurrent_payments/{id} without ?deleted_by: deleted_by "merchant".
      canceled = await deps.subscriptions.cancel(caller, before.id, null);
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') {
        const current = await deps.subscriptions.get(caller, before.id);
        return sendCancelPage(req, reply, ctx, current, error.messages.join(' '), 409);
      }
      throw error;
    }
    if (before.status !== 'CANCELED') {
      await deps.dashboard.audit.record(ctx.actor, {
        merchantId: ctx.merchantId,
        action: 'recurrent_payment.cancel',
        objectType: 'recurrent_payment',
        objectId: canceled.id,
        detail: { mode: ctx.mode, status_before: before.status, payment_link_id: canceled.paymentLinkId },
      });
    }
    return t.seeOther(reply, `${base}/recurrent_payments/${canceled.id}?canceled=1`);
  });
}

// ---- the subscriber page's derived parts ---------------------------------------------------------

/** The periods from the anchor: the paid ones and the one now due (latest first, the last few). */
function periodsOf(
  rec: RecurrentPayment,
  charges: readonly PaymentOrder[],
): { periods: PeriodRow[]; periodsShown: string | null } {
  if (rec.anchorAt === null) {
    return { periods: [], periodsShown: null };
  }
  const billing = rec.status === 'ACTIVE' || rec.status === 'TRIALING' || rec.status === 'UNPAID';
  const more = rec.intervalCount === null || rec.periodsPaid < rec.intervalCount;
  const open = more && (billing || rec.failedAttempts > 0);
  const total = rec.periodsPaid + (open ? 1 : 0);
  const first = Math.max(0, total - PERIODS_SHOWN);
  const periods: PeriodRow[] = [];
  for (let k = total - 1; k >= first; k--) {
    const bounds = periodBounds(rec.anchorAt, rec.intervalType, k);
    const state =
      k < rec.periodsPaid
        ? 'Paid'
        : rec.failedAttempts > 0
          ? rec.failedAttempts === 1
            ? tr('Unpaid: 1 failed try')
            : tr('Unpaid: {count} failed tries', { count: rec.failedAttempts })
          : billing
            ? 'Upcoming'
            : tr('Not charged');
    periods.push({
      index: k,
      start: bounds.start,
      end: bounds.end,
      state,
      charges: charges.filter((o) => o.periodIndex === k),
    });
  }
  return { periods, periodsShown: total > PERIODS_SHOWN ? `the latest ${PERIODS_SHOWN} of ${total}` : null };
}

/** Where the subscription stands with failed renewals: tries so far, the next retry, the policy. */
function dunningOf(
  rec: RecurrentPayment,
  policy: { retryDays: readonly number[]; cancelWhenRetriesExhausted: boolean },
): SafeHtml {
  const period = rec.periodsPaid + 1;
  const tries = (n: number) => `${n} ${n === 1 ? 'time' : 'times'}`;
  const retries = policy.retryDays.length;
  const state =
    rec.status === 'UNPAID' && rec.nextPaymentDate !== null
      ? html`<p data-test="dunning-state">The payment of period ${period} failed ${tries(rec.failedAttempts)}. Next try: <span data-test="next-retry">${time(rec.nextPaymentDate)}</span> (retry ${Math.min(rec.failedAttempts, retries)} of ${retries}).</p>`
      : rec.status === 'UNPAID'
        ? html`<p data-test="dunning-state">The payment of period ${period} failed ${tries(rec.failedAttempts)} and every retry is used: no further automatic charge. It is tried again if the subscriber saves another card on their page.</p>`
        : rec.status === 'CANCELED' && rec.deletedBy === 'retries_exhausted'
          ? html`<p data-test="dunning-state">Cancelled after the payment of period ${period} failed ${tries(rec.failedAttempts)}.</p>`
          : html`<p data-test="dunning-state">No failed payment${rec.status === 'ACTIVE' || rec.status === 'TRIALING' ? ': the subscription is up to date' : ''}.</p>`;
  const days = policy.retryDays.map((d) => String(d)).join(', ');
  return html`${state}
<p class="hint">A failed renewal is retried ${retries === 0 ? 'never' : `${days} days after its due date`}; after the last try the subscription ${policy.cancelWhenRetriesExhausted ? 'is cancelled' : 'stays unpaid'}.</p>`;
}
