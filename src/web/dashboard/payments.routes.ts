import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CheckoutPreference, PreferenceFilter } from '../../domain/checkout-preferences/checkout-preference.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { PaymentMethodType } from '../../domain/payment-methods/payment-method.ts';
import type { PaymentOrderStatus } from '../../domain/payment-orders/payment-order.status.ts';
import type { PaymentOrder, PaymentOrderFilter } from '../../domain/payment-orders/payment-order.ts';
import { AppError, notFound } from '../../domain/shared/errors.ts';
import { formatMinor } from '../../domain/shared/money.ts';
import type { Page, PageCursor, PageRequest } from '../../domain/shared/page.ts';
import { qrSvg } from '../../providers/shared/qr.ts';
import { formField } from '../checkout/form-input.ts';
import { methodName } from '../checkout/format.ts';
import type { SafeHtml } from '../checkout/html.ts';
import { html, trustedMarkup } from '../checkout/html.ts';
import { messagesFor, negotiateLocale } from '../checkout/i18n.ts';
import { cardDescription } from '../checkout/panels/card.ts';
import { pushPanel } from '../checkout/panels/index.ts';
import type { PanelContext } from '../checkout/panels/shared.ts';
import { callerOf } from './caller.ts';
import type { DashContext, DashTools } from './dash-tools.ts';
import { formatMoney, t as tr } from './i18n.ts';
import type { CreateForm, FilterForm, ListInput, PaymentsKit } from './views/payments.views.ts';
import {
  confirmPage,
  createPaymentPage,
  csvLine,
  EXPIRY_CHOICES,
  FILTER_FIELDS,
  METHOD_TYPE_NAMES,
  METHOD_TYPES,
  ORDER_STATUS_OPTIONS,
  orderPage,
  ordersListPage,
  PREFERENCE_STATUS_OPTIONS,
  preferencePage,
  preferencesListPage,
} from './views/payments.views.ts';

type Req = FastifyRequest;
type IdParams = { Params: { id: string } };

const PAGE_SIZE = 50;
/** The export reads the list in pages of this size and streams each as it comes. */
const EXPORT_PAGE_SIZE = 100;
const DAY_MS = 86_400_000;
const MAX_REASON = 500;

/**
 * Fixed notices after a redirect: the query only chooses one, its text is never echoed. Functions,
 * so each is worded in the language of the request that shows it.
 */
const NOTICES: Record<string, () => string> = {
  refunded: () => tr('The payment is refunded.'),
  confirmed: () => tr('The transfer is confirmed: the payment is paid.'),
  redelivered: () => tr('The event is queued for one more delivery to each of its endpoints.'),
};

/** The common filters as typed, checked; what a list and its export both use. */
type ReadFilters = {
  form: FilterForm;
  problems: string[];
  cursor: PageCursor | null;
  status?: string;
  paymentMethodType?: PaymentMethodType;
  createdGte?: number;
  createdLt?: number;
  externalId?: string;
  payerEmail?: string;
};

function utcDay(label: string, value: string, problems: string[]): number | undefined {
  if (value === '') {
    return undefined;
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    problems.push(`${label} must be a date such as 2025-01-31`);
    return undefined;
  }
  return ms;
}

function readFilters(query: unknown, statuses: readonly string[]): ReadFilters {
  const form = Object.fromEntries(FILTER_FIELDS.map((f) => [f, formField(query, f).trim()])) as FilterForm;
  const problems: string[] = [];
  const out: ReadFilters = { form, problems, cursor: null };
  if (form.status !== '') {
    if (statuses.includes(form.status)) {
      out.status = form.status;
    } else {
      problems.push(tr('Status must be one of {values}', { values: statuses.join(', ') }));
    }
  }
  if (form.method !== '') {
    const type = METHOD_TYPES.find((t) => t === form.method);
    if (type) {
      out.paymentMethodType = type;
    } else {
      problems.push(tr('Method must be one of {values}', { values: METHOD_TYPES.join(', ') }));
    }
  }
  const from = utcDay('Created from', form.created_from, problems);
  const to = utcDay('Created to', form.created_to, problems);
  if (from !== undefined) {
    out.createdGte = from;
  }
  if (to !== undefined) {
    // The "to" day is included: everything before the next day's midnight (UTC).
    out.createdLt = to + DAY_MS;
  }
  if (form.external_id !== '') {
    if ([...form.external_id].length > 255) {
      problems.push('External ID must be at most 255 characters');
    } else {
      out.externalId = form.external_id;
    }
  }
  if (form.payer_email !== '') {
    if (form.payer_email.length > 254) {
      problems.push('Payer e-mail must be at most 254 characters');
    } else {
      out.payerEmail = form.payer_email;
    }
  }
  const after = formField(query, 'after');
  if (after !== '') {
    const m = /^(\d{1,16})\.([A-Za-z0-9]{22})$/.exec(after);
    if (m?.[1] && m[2]) {
      out.cursor = { createdAt: Number(m[1]), id: m[2] };
    } else {
      problems.push('The page link is not valid: start again from the first page');
    }
  }
  return out;
}

function orderFilterOf(f: ReadFilters): PaymentOrderFilter {
  return {
    ...(f.status !== undefined ? { status: f.status as PaymentOrderStatus } : {}),
    ...(f.paymentMethodType !== undefined ? { paymentMethodType: f.paymentMethodType } : {}),
    ...(f.createdGte !== undefined ? { createdGte: f.createdGte } : {}),
    ...(f.createdLt !== undefined ? { createdLt: f.createdLt } : {}),
    ...(f.externalId !== undefined ? { externalId: f.externalId } : {}),
    ...(f.payerEmail !== undefined ? { payerEmail: f.payerEmail } : {}),
  };
}

function preferenceFilterOf(f: ReadFilters): PreferenceFilter {
  return {
    ...(f.status !== undefined ? { status: f.status as CheckoutPreference['status'] } : {}),
    ...(f.paymentMethodType !== undefined ? { paymentMethodType: f.paymentMethodType } : {}),
    ...(f.createdGte !== undefined ? { createdGte: f.createdGte } : {}),
    ...(f.createdLt !== undefined ? { createdLt: f.createdLt } : {}),
    ...(f.externalId !== undefined ? { externalId: f.externalId } : {}),
    ...(f.payerEmail !== undefined ? { payerEmail: f.payerEmail } : {}),
  };
}

const iso = (ms: number | null): string => (ms === null ? '' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** The whole filtered list, page after page, as CSV text chunks (header first). */
async function* csvChunks<T>(
  header: readonly string[],
  read: (page: PageRequest) => Promise<Page<T>>,
  row: (item: T) => string[],
): AsyncGenerator<Buffer> {
  yield Buffer.from(csvLine(header), 'utf8');
  let cursor: PageCursor | null = null;
  for (;;) {
    const page = await read({ limit: EXPORT_PAGE_SIZE, cursor });
    if (page.data.length > 0) {
      yield Buffer.from(page.data.map((item) => csvLine(row(item))).join(''), 'utf8');
    }
    if (!page.hasMore || !page.next) {
      return;
    }
    cursor = page.next;
  }
}

function sendCsv(reply: FastifyReply, filename: string, chunks: AsyncGenerator<Buffer>): FastifyReply {
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(Readable.from(chunks, { objectMode: false }));
}

/** The method's instructions as the checkout shows them (its own panels); a card shows brand and last four. */
async function instructionsOf(order: PaymentOrder, ctx: PanelContext): Promise<SafeHtml | null> {
  const ins = order.instructions;
  if (ins?.type === 'CARD') {
    const described = cardDescription(ins, ctx);
    return described ? html`<p data-test="card-used">${described}</p>` : null;
  }
  return pushPanel(ins, ctx);
}

function readCreateForm(body: unknown): CreateForm {
  const raw = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).methods : undefined;
  const methods = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
    (x): x is string => typeof x === 'string',
  );
  return {
    title: formField(body, 'title').trim(),
    amount: formField(body, 'amount').trim(),
    currency: formField(body, 'currency').trim(),
    expires_in: formField(body, 'expires_in').trim(),
    methods,
    external_id: formField(body, 'external_id').trim(),
  };
}

/**
 * Payments: the payment orders and checkout preferences (filtered lists, CSV export), an
 * order's page (record, payer, instructions, timeline with webhook deliveries; refund,
 * confirm a transfer, redeliver an event), a preference's page (its checkout link with a QR
 * code) and the form that creates a one-time payment. Every read and change goes through the
 * domain services the API uses; another merchant's or the other mode's id is NOT_FOUND (404).
 */
export function registerPaymentsRoutes(scope: FastifyInstance, t: DashTools, mode: Mode, base: string): void {
  const { deps } = t;

  const kitOf = (req: Req, reply: FastifyReply, ctx: DashContext): PaymentsKit => ({
    base,
    csrf: t.csrfToken(req, reply),
    money: (minor, currency) => formatMoney(minor, currency, deps.currencies.get(currency)?.decimals ?? 2, ctx.m),
  });

  // ---- lists --------------------------------------------------------------------------------
  /** One filtered, paged list page: the orders and the preferences differ only in these parts. */
  const listRoute = <T>(list: {
    path: string;
    title: string;
    statuses: readonly string[];
    fetch: (ctx: DashContext, f: ReadFilters) => Promise<Page<T>>;
    render: (kit: PaymentsKit, input: ListInput<T>) => SafeHtml;
  }) =>
    scope.get(`${base}${list.path}`, async (req, reply) => {
      const ctx = await t.requireSession(req, reply, mode, base);
      if (!ctx) {
        return reply;
      }
      const f = readFilters(req.query, list.statuses);
      const page = f.problems.length === 0 ? await list.fetch(ctx, f) : null;
      const body = list.render(kitOf(req, reply, ctx), {
        form: f.form,
        problems: f.problems,
        page,
        paged: f.cursor !== null,
        canCreate: ctx.can('payments.write'),
      });
      return t.sendShell(req, reply, ctx, 'payments', list.title, body, page ? 200 : 400);
    });

  listRoute({
    path: '/payments',
    title: 'Payments',
    statuses: ORDER_STATUS_OPTIONS,
    fetch: (ctx, f) => deps.orders.list(callerOf(ctx), { limit: PAGE_SIZE, cursor: f.cursor }, orderFilterOf(f)),
    render: ordersListPage,
  });
  listRoute({
    path: '/checkout_preferences',
    title: tr('Checkout preferences'),
    statuses: PREFERENCE_STATUS_OPTIONS,
    fetch: (ctx, f) =>
      deps.preferences.list(callerOf(ctx), { limit: PAGE_SIZE, cursor: f.cursor }, preferenceFilterOf(f)),
    render: preferencesListPage,
  });

  // ---- CSV exports of the filtered lists ------------------------------------------------------
  const filename = (what: string) => `${what}-${mode}-${new Date().toISOString().slice(0, 10)}.csv`;

  scope.get(`${base}/payments.csv`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const f = readFilters(req.query, ORDER_STATUS_OPTIONS);
    if (f.problems.length > 0) {
      throw new AppError('WRONG_INPUT', f.problems);
    }
    const caller = callerOf(ctx);
    const filter = orderFilterOf(f);
    const decimals = (c: string) => deps.currencies.get(c)?.decimals ?? 2;
    const header = [
      'id',
      'created_at',
      'status',
      'anomaly',
      'amount',
      'currency',
      'payment_method_type',
      'title',
      'external_id',
      'payer_email',
      'payer_first_name',
      'payer_last_name',
      'checkout_preference_id',
      'closed_at',
      'refunded_at',
    ];
    return sendCsv(
      reply,
      filename('payment-orders'),
      csvChunks(
        header,
        (page) => deps.orders.list(caller, page, filter),
        (o) => [
          o.id,
          iso(o.createdAt),
          o.status,
          o.anomaly,
          formatMinor(o.amountMinor, decimals(o.currency)),
          o.currency,
          o.paymentMethodType,
          o.title,
          o.externalId ?? '',
          o.payer.email ?? '',
          o.payer.firstName ?? '',
          o.payer.lastName ?? '',
          o.checkoutPreferenceId ?? '',
          iso(o.closedAt),
          iso(o.refundedAt),
        ],
      ),
    );
  });

  scope.get(`${base}/checkout_preferences.csv`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const f = readFilters(req.query, PREFERENCE_STATUS_OPTIONS);
    if (f.problems.length > 0) {
      throw new AppError('WRONG_INPUT', f.problems);
    }
    const caller = callerOf(ctx);
    const filter = preferenceFilterOf(f);
    const decimals = (c: string) => deps.currencies.get(c)?.decimals ?? 2;
    const header = [
      'id',
      'created_at',
      'type',
      'status',
      'amount',
      'currency',
      'title',
      'external_id',
      'payer_email',
      'payment_order_id',
      'expires_at',
      'checkout_url',
    ];
    return sendCsv(
      reply,
      filename('checkout-preferences'),
      csvChunks(
        header,
        (page) => deps.preferences.list(caller, page, filter),
        (p) => [
          p.id,
          iso(p.createdAt),
          p.type,
          p.status,
          formatMinor(p.amountMinor, decimals(p.currency)),
          p.currency,
          p.title,
          p.externalId ?? '',
          p.payer.email ?? '',
          p.paymentOrderId ?? '',
          iso(p.expiresAt),
          deps.preferences.checkoutUrl(p.id),
        ],
      ),
    );
  });

  // ---- creating a one-time payment -------------------------------------------------------------
  const createPage = (req: Req, reply: FastifyReply, ctx: DashContext, form: CreateForm, problems: readonly string[]) =>
    t.sendShell(
      req,
      reply,
      ctx,
      'payments',
      tr('Create a payment'),
      createPaymentPage(kitOf(req, reply, ctx), {
        form,
        currencies: deps.currencies.all().map((c) => ({ code: c.code, name: c.name })),
        problems,
      }),
      problems.length > 0 ? 400 : 200,
    );

  scope.get(`${base}/payments/new`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'payments.write');
    if (!ctx) {
      return reply;
    }
    return createPage(
      req,
      reply,
      ctx,
      { title: '', amount: '', currency: 'USD', expires_in: '1440', methods: [], external_id: '' },
      [],
    );
  });

  scope.post(`${base}/payments/new`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'payments.write');
    if (!ctx) {
      return reply;
    }
    const form = readCreateForm(req.body);
    const problems: string[] = [];
    if ([...form.title].length > 255) {
      problems.push('title must be at most 255 characters');
    }
    if ([...form.external_id].length > 255) {
      problems.push('external_id must be at most 255 characters');
    }
    // The amount as typed, "16.90" or "16,90"; the service rounds and bounds it.
    const amountText = form.amount.replace(',', '.');
    let amount: number | null = null;
    if (form.amount === '') {
      problems.push('amount is required');
    } else if (!/^\d{1,15}(\.\d{1,18})?$/.test(amountText)) {
      problems.push('amount must be a number such as 16.90');
    } else {
      amount = Number(amountText);
    }
    const expiry = EXPIRY_CHOICES.find((c) => c.value === form.expires_in);
    if (!expiry) {
      problems.push('expires_in must be one of the choices offered');
    }
    const types = METHOD_TYPES.filter((x) => form.methods.includes(x));
    if (types.length !== form.methods.length) {
      problems.push(`methods must be among ${METHOD_TYPES.join(', ')}`);
    }
    if (problems.length > 0) {
      return createPage(req, reply, ctx, form, problems);
    }
    let pref: CheckoutPreference;
    try {
      pref = await deps.preferences.create(callerOf(ctx), {
        type: 'PAYMENT',
        origin: 'PAYMENT_LINK',
        title: form.title,
        amount,
        currency: form.currency,
        externalId: form.external_id === '' ? null : form.external_id,
        expiresInMs: Number(expiry?.value ?? '15') * 60_000,
        paymentMethodTypes: types.length > 0 ? types : null,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'WRONG_INPUT') {
        return createPage(req, reply, ctx, form, error.messages);
      }
      throw error;
    }
    await deps.dashboard.audit.record(ctx.actor, {
      merchantId: ctx.merchantId,
      action: 'checkout_preference.create',
      objectType: 'checkout_preference',
      objectId: pref.id,
      detail: {
        mode,
        amount: formatMinor(pref.amountMinor, deps.currencies.get(pref.currency)?.decimals ?? 2),
        currency: pref.currency,
      },
    });
    return t.seeOther(reply, `${base}/checkout_preferences/${pref.id}?created=1`);
  });

  // ---- a checkout preference ---------------------------------------------------------------------
  scope.get<IdParams>(`${base}/checkout_preferences/:id`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const pref = await deps.preferences.get(caller, req.params.id);
    const orders = await deps.orders.list(caller, { limit: 100, cursor: null }, { checkoutPreferenceId: pref.id });
    const checkoutUrl = deps.preferences.checkoutUrl(pref.id);
    const qr = pref.status === 'OPEN' ? trustedMarkup(await qrSvg(checkoutUrl, 'QR code of the checkout link')) : null;
    const created = formField(req.query, 'created') === '1';
    return t.sendShell(
      req,
      reply,
      ctx,
      'payments',
      pref.title,
      preferencePage(kitOf(req, reply, ctx), { pref, checkoutUrl, qr, orders: orders.data, created }),
    );
  });

  // ---- a payment order ---------------------------------------------------------------------------
  scope.get<IdParams>(`${base}/payment_orders/:id`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const order = await deps.orders.get(caller, req.params.id);
    const method = await deps.paymentMethods.get(order.paymentMethodId);
    const methodLabel = method ? methodName(method) : METHOD_TYPE_NAMES[order.paymentMethodType];
    const instructions = await instructionsOf(order, {
      messages: messagesFor(negotiateLocale(req.headers['accept-language'])),
      methodLabel,
      networkName: method?.network?.name ?? null,
    });
    const events = await deps.webhooks.events.listEvents(caller, { limit: 100, cursor: null }, { entityId: order.id });
    const chronological = [...events.data].sort((a, b) => a.sequence - b.sequence || a.createdAt - b.createdAt);
    const timeline = await Promise.all(
      chronological.map(async (event) => ({ event, ...(await deps.webhooks.events.deliveries(caller, event.id)) })),
    );
    const done = formField(req.query, 'done');
    return t.sendShell(
      req,
      reply,
      ctx,
      'payments',
      order.title,
      orderPage(kitOf(req, reply, ctx), {
        order,
        methodLabel,
        instructions,
        timeline,
        notice: NOTICES[done]?.() ?? null,
        canRefund: order.status === 'CLOSED' && ctx.can('payments.write'),
        canConfirm:
          order.status === 'OPENED' && order.paymentMethodType === 'BANK_TRANSFER' && ctx.can('payments.write'),
        canRedeliver: ctx.can('webhooks.write'),
      }),
    );
  });

  // Refund: GET asks (with a reason), POST does it through the orders service, then the audit entry.
  const refundPage = (
    req: Req,
    reply: FastifyReply,
    ctx: DashContext,
    order: PaymentOrder,
    reason: string,
    problems: readonly string[],
    status: number,
  ) =>
    t.sendShell(
      req,
      reply,
      ctx,
      'payments',
      'Refund',
      confirmPage(kitOf(req, reply, ctx), {
        order,
        heading: tr('Refund {title}?', { title: order.title }),
        explanation:
          order.paymentMethodType === 'CARD'
            ? tr('The whole amount goes back to the card. This cannot be undone.')
            : tr(
                'Send the money back to the payer yourself; this records the payment as refunded and notifies your webhooks. This cannot be undone.',
              ),
        action: `${base}/payment_orders/${order.id}/refund`,
        button: 'Refund',
        reason: { value: reason },
        problems,
      }),
      status,
    );

  scope.get<IdParams>(`${base}/payment_orders/:id/refund`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'payments.write');
    if (!ctx) {
      return reply;
    }
    const order = await deps.orders.get(callerOf(ctx), req.params.id);
    const blocked =
      order.status === 'CLOSED'
        ? []
        : [tr('This payment cannot be refunded: its status is {status}.', { status: order.status })];
    return refundPage(req, reply, ctx, order, '', blocked, blocked.length > 0 ? 409 : 200);
  });

  scope.post<IdParams>(`${base}/payment_orders/:id/refund`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'payments.write');
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const order = await deps.orders.get(caller, req.params.id);
    const reason = formField(req.body, 'reason').trim();
    if ([...reason].length > MAX_REASON) {
      return refundPage(
        req,
        reply,
        ctx,
        order,
        reason,
        [tr('Reason must be at most {max} characters.', { max: MAX_REASON })],
        400,
      );
    }
    try {
      await deps.orderMoves.refund(caller, order.id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') {
        return refundPage(req, reply, ctx, order, reason, error.messages, 409);
      }
      throw error;
    }
    await deps.dashboard.audit.record(ctx.actor, {
      merchantId: ctx.merchantId,
      action: 'payment_order.refund',
      objectType: 'payment_order',
      objectId: order.id,
      detail: {
        mode,
        reason: reason === '' ? null : reason,
        amount: formatMinor(order.amountMinor, deps.currencies.get(order.currency)?.decimals ?? 2),
        currency: order.currency,
      },
    });
    return t.seeOther(reply, `${base}/payment_orders/${order.id}?done=refunded`);
  });

  // Confirm a bank transfer the merchant saw arrive: GET asks, POST does it.
  const confirmTransferPage = (
    req: Req,
    reply: FastifyReply,
    ctx: DashContext,
    order: PaymentOrder,
    problems: readonly string[],
    status: number,
  ) =>
    t.sendShell(
      req,
      reply,
      ctx,
      'payments',
      tr('Confirm transfer'),
      confirmPage(kitOf(req, reply, ctx), {
        order,
        heading: tr('Confirm the transfer for {title}?', { title: order.title }),
        explanation: tr(
          'Confirm only when the money is in your account with the reference of this payment: the payment becomes paid and your webhooks are notified.',
        ),
        action: `${base}/payment_orders/${order.id}/confirm`,
        button: tr('Confirm transfer received'),
        problems,
      }),
      status,
    );

  scope.get<IdParams>(`${base}/payment_orders/:id/confirm`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'payments.write');
    if (!ctx) {
      return reply;
    }
    const order = await deps.orders.get(callerOf(ctx), req.params.id);
    const blocked =
      order.status === 'OPENED' && order.paymentMethodType === 'BANK_TRANSFER'
        ? []
        : [tr('Only an open bank transfer can be confirmed by you.')];
    return confirmTransferPage(req, reply, ctx, order, blocked, blocked.length > 0 ? 409 : 200);
  });

  scope.post<IdParams>(`${base}/payment_orders/:id/confirm`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'payments.write');
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const order = await deps.orders.get(caller, req.params.id);
    try {
      await deps.orderMoves.confirmByMerchant(caller, order.id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') {
        return confirmTransferPage(req, reply, ctx, order, error.messages, 409);
      }
      throw error;
    }
    await deps.dashboard.audit.record(ctx.actor, {
      merchantId: ctx.merchantId,
      action: 'payment_order.confirm',
      objectType: 'payment_order',
      objectId: order.id,
      detail: { mode },
    });
    return t.seeOther(reply, `${base}/payment_orders/${order.id}?done=confirmed`);
  });

  // Redeliver one event of this order (webhook service), back to the order's timeline.
  scope.post<{ Params: { id: string; eventId: string } }>(
    `${base}/payment_orders/:id/events/:eventId/redeliver`,
    async (req, reply) => {
      const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
      if (!ctx) {
        return reply;
      }
      const caller = callerOf(ctx);
      const order = await deps.orders.get(caller, req.params.id);
      const event = await deps.webhooks.events.getEvent(caller, req.params.eventId);
      if (event.entityId !== order.id) {
        throw notFound('event');
      }
      await deps.webhooks.events.redeliver(caller, event.id);
      await deps.dashboard.audit.record(ctx.actor, {
        merchantId: ctx.merchantId,
        action: 'event.redeliver',
        objectType: 'event',
        objectId: event.id,
        detail: { mode, payment_order_id: order.id, event_type: event.eventType },
      });
      return t.seeOther(reply, `${base}/payment_orders/${order.id}?done=redelivered`);
    },
  );
}
