import { AppError } from '../../../domain/shared/errors.ts';
import type { PageRequest } from '../../../domain/shared/page.ts';
import type { RecurrentPaymentStatus } from '../../../domain/subscriptions/recurrent-payment.status.ts';
import { canTransition, RECURRENT_PAYMENT_STATUSES } from '../../../domain/subscriptions/recurrent-payment.status.ts';
import type { RecurrentPayment } from '../../../domain/subscriptions/recurrent-payment.ts';
import { cursorParam, pageLimit, parseCursorParam, queryOf, queryText, withQuery } from '../../kit/query.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import {
  cancelPage,
  dunningOf,
  periodsOf,
  subscriberListPage,
  subscriberPage,
} from '../views/recurrent-payments.views.ts';
import { moneyOf } from '../views/subscription-terms.views.ts';

const PAGE_SIZE = 50;
/** Plans offered in the subscriber list's plan filter (a plan id further down still filters by URL). */
const PLAN_CHOICES = 100;

/**
 * Subscribers (recurrent payments): the list, filtered by status and plan; a subscriber's page
 * with its periods, failed renewals and charges; cancelling. Every read and change goes through
 * SubscriptionService, as the API's routes do.
 */
export function recurrentPaymentsRoutes(r: DashRouter): void {
  r.page('/recurrent_payments', listSubscribers);
  r.page('/recurrent_payments/:id', showSubscriber);
  r.page('/recurrent_payments/:id/cancel', confirmCancel, 'payments.write');
  r.action('/recurrent_payments/:id/cancel', 'payments.write', cancelSubscription);
}

type IdParams = { Params: { id: string } };

async function listSubscribers({ req, ctx, caller, services, render }: DashRequest) {
  const { base } = ctx;
  const status = queryText(req, 'status');
  if (status !== '' && !(RECURRENT_PAYMENT_STATUSES as readonly string[]).includes(status)) {
    throw new AppError('WRONG_INPUT', [`status must be one of ${RECURRENT_PAYMENT_STATUSES.join(', ')}`]);
  }
  const plan = queryText(req, 'plan');
  if (plan !== '' && !/^[A-Za-z0-9]{1,64}$/.test(plan)) {
    throw new AppError('WRONG_INPUT', ['plan must be a plan id']);
  }
  const [page, plans] = await Promise.all([
    services.subscriptions.list(
      caller,
      { limit: pageLimit(req, PAGE_SIZE), cursor: parseCursorParam(queryOf(req).after) },
      {
        ...(status ? { status: status as RecurrentPaymentStatus } : {}),
        ...(plan ? { paymentLinkId: plan } : {}),
      },
    ),
    services.paymentLinks.list(caller, { limit: PLAN_CHOICES, cursor: null }, {}),
  ]);
  const after = cursorParam(page.next);
  return render(
    'subscriptions',
    tr('Subscribers'),
    subscriberListPage({
      base,
      money: moneyOf(services.currencies, ctx.m),
      rows: page.data,
      status: status as RecurrentPaymentStatus | '',
      plan,
      plans: plans.data,
      nextHref: after
        ? withQuery(`${base}/recurrent_payments`, { status, plan, limit: queryText(req, 'limit'), after })
        : null,
    }),
  );
}

async function showSubscriber({ req, ctx, caller, services, render }: DashRequest<IdParams>) {
  const { base } = ctx;
  const rec = await services.subscriptions.get(caller, req.params.id);
  const chargesPage: PageRequest = {
    limit: PAGE_SIZE,
    cursor: parseCursorParam(queryOf(req).charges_after, 'charges_after'),
  };
  const charges = await services.orders.list(caller, chargesPage, { recurrentPaymentId: rec.id });
  const chargesAfter = cursorParam(charges.next);
  return render(
    'subscriptions',
    tr('Subscription {id}', { id: rec.id }),
    subscriberPage({
      base,
      money: moneyOf(services.currencies, ctx.m),
      rec,
      canCancel: ctx.can('payments.write'),
      cancellable: canTransition(rec.status, 'CANCELED'),
      ...periodsOf(rec, charges.data),
      charges: charges.data,
      chargesNextHref: chargesAfter
        ? withQuery(`${base}/recurrent_payments/${rec.id}`, { charges_after: chargesAfter })
        : null,
      dunning: dunningOf(rec, services.subscriptions.dunningPolicy()),
      notice:
        queryOf(req).canceled !== undefined ? tr('Subscription cancelled. No further payment will be charged.') : null,
    }),
  );
}

async function confirmCancel(d: DashRequest<IdParams>) {
  const rec = await d.services.subscriptions.get(d.caller, d.req.params.id);
  return sendCancelPage(d, rec, null);
}

async function cancelSubscription(d: DashRequest<IdParams>) {
  const { req, ctx, caller, services, redirect, audit } = d;
  const before = await services.subscriptions.get(caller, req.params.id);
  let canceled: RecurrentPayment;
  try {
    // The API's DELETE /v1/recurrent_payments/{id} without ?deleted_by: deleted_by "merchant".
    canceled = await services.subscriptions.cancel(caller, before.id, null);
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT') {
      const current = await services.subscriptions.get(caller, before.id);
      return sendCancelPage(d, current, error.messages.join(' '), 409);
    }
    throw error;
  }
  if (before.status !== 'CANCELED') {
    await audit({
      action: 'recurrent_payment.cancel',
      objectType: 'recurrent_payment',
      objectId: canceled.id,
      detail: { mode: ctx.mode, status_before: before.status, payment_link_id: canceled.paymentLinkId },
    });
  }
  return redirect(`${ctx.base}/recurrent_payments/${canceled.id}?canceled=1`);
}

/** The confirmation step (with `problem` when the cancel was refused). */
function sendCancelPage(
  { ctx, services, render, csrfToken }: DashRequest,
  rec: RecurrentPayment,
  problem: string | null,
  status = 200,
) {
  return render(
    'subscriptions',
    tr('Cancel subscription'),
    cancelPage({
      base: ctx.base,
      csrf: csrfToken(),
      money: moneyOf(services.currencies, ctx.m),
      rec,
      cancellable: canTransition(rec.status, 'CANCELED'),
      problem,
    }),
    status,
  );
}
