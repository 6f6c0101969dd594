import { AppError } from '../../../domain/shared/errors.ts';
import { formatMinor, parseDecimal } from '../../../domain/shared/money.ts';
import type { CreatePaymentLinkInput } from '../../../domain/subscriptions/payment-link.service.ts';
import type { IntervalType, PaymentLink } from '../../../domain/subscriptions/payment-link.ts';
import { INTERVAL_TYPES } from '../../../domain/subscriptions/payment-link.ts';
import { planLinkUrl } from '../../../domain/subscriptions/plan-link-url.ts';
import { formField } from '../../kit/form-input.ts';
import { html } from '../../kit/html.ts';
import { qrSvg } from '../../kit/qr.ts';
import { cursorParam, pageLimit, parseCursorParam, queryOf, queryText, withQuery } from '../../kit/query.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import type { PlanFormErrors, PlanFormField, PlanFormValues } from '../views/payment-links.views.ts';
import {
  archivePage,
  EMPTY_PLAN_FORM,
  NO_ERRORS,
  planFormPage,
  planListPage,
  planPage,
} from '../views/payment-links.views.ts';
import { moneyOf } from '../views/subscription-terms.views.ts';

const PAGE_SIZE = 50;

/**
 * Plans (payment links): the list is the Subscriptions section's first page; a plan is created,
 * saved as a new version, archived, and shown with its figures, public link and QR code. Every
 * read and change goes through PaymentLinkService, as the API's routes do; the figures
 * (subscribers, MRR) are aggregate queries of DashboardStatsService.
 */
export function paymentLinksRoutes(r: DashRouter): void {
  r.page('/subscriptions', listPlans);
  r.page('/payment_links', redirectToPlans);
  r.page('/payment_links/new', newPlanForm, 'plans.write');
  r.action('/payment_links', 'plans.write', createPlan);
  r.page('/payment_links/:id', showPlan);
  r.page('/payment_links/:id/edit', editPlanForm, 'plans.write');
  r.action('/payment_links/:id/edit', 'plans.write', savePlanVersion);
  r.page('/payment_links/:id/archive', confirmArchive, 'plans.write');
  r.action('/payment_links/:id/archive', 'plans.write', archivePlan);
}

type IdParams = { Params: { id: string } };

async function listPlans({ req, ctx, caller, services, render }: DashRequest) {
  const { base } = ctx;
  const statusText = queryText(req, 'status');
  if (statusText !== '' && statusText !== 'ACTIVE' && statusText !== 'ARCHIVED') {
    throw new AppError('WRONG_INPUT', ['status must be ACTIVE or ARCHIVED']);
  }
  const status = statusText as 'ACTIVE' | 'ARCHIVED' | '';
  const page = await services.paymentLinks.list(
    caller,
    { limit: pageLimit(req, PAGE_SIZE), cursor: parseCursorParam(queryOf(req).after) },
    status ? { status } : {},
  );
  const figures = await services.dashboard.stats.planFigures(
    ctx.merchantId,
    ctx.mode,
    page.data.map((p) => p.id),
  );
  const after = cursorParam(page.next);
  return render(
    'subscriptions',
    'Subscriptions',
    planListPage({
      base,
      canWrite: ctx.can('plans.write'),
      money: moneyOf(services.currencies, ctx.m),
      rows: page.data.map((plan) => ({ plan, figures: figures.get(plan.id) })),
      status,
      nextHref: after ? withQuery(`${base}/subscriptions`, { status, limit: queryText(req, 'limit'), after }) : null,
      notice: null,
    }),
  );
}

/** The API's name for plans: its list is the Subscriptions page. */
async function redirectToPlans({ ctx, redirect }: DashRequest) {
  return redirect(`${ctx.base}/subscriptions`);
}

async function newPlanForm(d: DashRequest) {
  return sendPlanForm(d, EMPTY_PLAN_FORM, NO_ERRORS, null);
}

async function createPlan(d: DashRequest) {
  const { req, ctx, caller, services, redirect, audit } = d;
  const values = readPlanForm(req.body);
  const parsed = toPlanInput(values);
  if (hasErrors(parsed.errors)) {
    return sendPlanForm(d, values, parsed.errors, null, 400);
  }
  let plan: PaymentLink;
  try {
    plan = await services.paymentLinks.create(caller, { ...parsed.input, externalId: null });
  } catch (error) {
    if (error instanceof AppError && error.code === 'WRONG_INPUT') {
      return sendPlanForm(d, values, serviceErrors(error), null, 400);
    }
    throw error;
  }
  await audit({
    action: 'payment_link.create',
    objectType: 'payment_link',
    objectId: plan.id,
    detail: { mode: ctx.mode, title: plan.title, version: plan.version },
  });
  return redirect(`${ctx.base}/payment_links/${plan.id}?created=1`);
}

async function showPlan({ req, ctx, caller, services, render }: DashRequest<IdParams>) {
  const plan = await services.paymentLinks.get(caller, req.params.id);
  const [figures, subscribers] = await Promise.all([
    services.dashboard.stats.planFigures(ctx.merchantId, ctx.mode, [plan.id]),
    services.subscriptions.list(caller, { limit: 20, cursor: null }, { paymentLinkId: plan.id }),
  ]);
  const publicLink = planLinkUrl(services.publicUrl, plan.id);
  const q = queryOf(req);
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
  return render(
    'subscriptions',
    plan.title,
    planPage({
      base: ctx.base,
      canWrite: ctx.can('plans.write'),
      money: moneyOf(services.currencies, ctx.m),
      plan,
      figures: figures.get(plan.id),
      publicLink,
      qr: await qrSvg(publicLink, tr('QR code of the link to {title}', { title: plan.title })),
      subscribers: subscribers.data,
      moreSubscribers: subscribers.hasMore,
      notice,
    }),
  );
}

async function editPlanForm(d: DashRequest<IdParams>) {
  const plan = await d.services.paymentLinks.get(d.caller, d.req.params.id);
  if (plan.status !== 'ACTIVE') {
    return sendArchivedNotice(d, plan);
  }
  const decimals = d.services.currencies.decimalsOf(plan.currency);
  return sendPlanForm(d, formValuesOf(plan, decimals), NO_ERRORS, plan);
}

/** Saves the form as the plan's next version, unless someone saved another version since the form was opened. */
async function savePlanVersion(d: DashRequest<IdParams>) {
  const { req, ctx, caller, services, redirect, audit } = d;
  const current = await services.paymentLinks.get(caller, req.params.id);
  if (current.status !== 'ACTIVE') {
    return sendArchivedNotice(d, current);
  }
  const values = { ...readPlanForm(req.body), currency: current.currency };
  const parsed = toPlanInput(values);
  if (hasErrors(parsed.errors)) {
    return sendPlanForm(d, values, parsed.errors, current, 400);
  }
  if (formField(req.body, 'version') !== String(current.version)) {
    // Someone saved the plan after this form was opened: show the form again rather than overwrite.
    const general = [
      tr(
        'This plan was changed while you were editing it: it is now at version {version}. Check the values and save again.',
        { version: current.version },
      ),
    ];
    return sendPlanForm(d, values, { fields: {}, general }, current, 409);
  }
  const p = parsed.input;
  let updated: PaymentLink;
  try {
    updated = await services.paymentLinks.update(caller, current.id, {
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
      const errors = error.code === 'WRONG_INPUT' ? serviceErrors(error) : { fields: {}, general: [...error.messages] };
      return sendPlanForm(d, values, errors, current, error.status);
    }
    throw error;
  }
  if (updated.version === current.version) {
    return redirect(`${ctx.base}/payment_links/${updated.id}?unchanged=1`);
  }
  await audit({
    action: 'payment_link.update',
    objectType: 'payment_link',
    objectId: updated.id,
    detail: { mode: ctx.mode, from_version: current.version, to_version: updated.version },
  });
  return redirect(`${ctx.base}/payment_links/${updated.id}?saved=1`);
}

async function confirmArchive({ req, ctx, caller, services, render, csrfToken }: DashRequest<IdParams>) {
  const plan = await services.paymentLinks.get(caller, req.params.id);
  return render(
    'subscriptions',
    tr('Archive {title}', { title: plan.title }),
    archivePage({ base: ctx.base, csrf: csrfToken(), plan, problem: null }),
  );
}

async function archivePlan({ req, ctx, caller, services, redirect, audit }: DashRequest<IdParams>) {
  const before = await services.paymentLinks.get(caller, req.params.id);
  const archived = await services.paymentLinks.archive(caller, before.id);
  if (before.status !== 'ARCHIVED') {
    await audit({
      action: 'payment_link.archive',
      objectType: 'payment_link',
      objectId: archived.id,
      detail: { mode: ctx.mode, version: archived.version },
    });
  }
  return redirect(`${ctx.base}/payment_links/${archived.id}?archived=1`);
}

// ---- the plan form ------------------------------------------------------------------------------

/** The plan form: new (no `editing`) or the next version of `editing`. */
function sendPlanForm(
  { ctx, services, render, csrfToken }: DashRequest,
  values: PlanFormValues,
  errors: PlanFormErrors,
  editing: PaymentLink | null,
  status = 200,
) {
  const { base } = ctx;
  return render(
    'subscriptions',
    editing ? tr('Edit {title}', { title: editing.title }) : tr('New plan'),
    planFormPage({
      action: editing ? `${base}/payment_links/${editing.id}/edit` : `${base}/payment_links`,
      csrf: csrfToken(),
      values,
      errors,
      currencies: services.currencies.all(),
      editing: editing ? { plan: editing, nextVersion: editing.version + 1 } : null,
      cancelHref: editing ? `${base}/payment_links/${editing.id}` : `${base}/subscriptions`,
    }),
    status,
  );
}

/** An archived plan has no form: the page says so (409). */
function sendArchivedNotice({ ctx, render }: DashRequest, plan: PaymentLink) {
  return render(
    'subscriptions',
    plan.title,
    html`<h1>${plan.title}</h1><p data-test="archived-notice">${tr('This plan is archived and can no longer be edited. Create a new plan instead.')}</p>
<p><a href="${ctx.base}/payment_links/${plan.id}">${tr('Back to the plan')}</a></p>`,
    409,
  );
}

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
