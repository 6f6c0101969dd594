import type { CheckoutPreference } from '../../../domain/checkout-preferences/checkout-preference.ts';
import { AppError } from '../../../domain/shared/errors.ts';
import { formatMinor } from '../../../domain/shared/money.ts';
import { formField } from '../../kit/form-input.ts';
import { trustedMarkup } from '../../kit/html.ts';
import { qrSvg } from '../../kit/qr.ts';
import { formList } from '../../kit/query.ts';
import { t as tr } from '../i18n.ts';
import type { PaymentList } from '../payment-lists.ts';
import { exportList, iso, paymentsKit, showList } from '../payment-lists.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import type { CreateForm } from '../views/checkout-preferences.views.ts';
import {
  createPaymentPage,
  EXPIRY_CHOICES,
  PREFERENCE_STATUS_OPTIONS,
  preferencePage,
  preferencesListPage,
} from '../views/checkout-preferences.views.ts';
import { METHOD_TYPES } from '../views/payments.views.ts';

/**
 * Checkout preferences: the filtered list and its CSV export, a preference's page (its checkout
 * link with a QR code, its orders), and the form that creates a one-time payment (a preference
 * with its own checkout link; it sits at /payments/new, the Payments section's "Create a
 * payment" button). Another merchant's or the other mode's id is NOT_FOUND (404).
 */
export function checkoutPreferencesRoutes(r: DashRouter): void {
  r.page('/checkout_preferences', listCheckoutPreferences);
  r.page('/checkout_preferences.csv', exportCheckoutPreferences);
  r.page('/checkout_preferences/:id', showCheckoutPreference);
  r.page('/payments/new', newPaymentForm, 'payments.write');
  r.action('/payments/new', 'payments.write', createPayment);
}

const PREFERENCES: PaymentList<CheckoutPreference, (typeof PREFERENCE_STATUS_OPTIONS)[number]> = {
  title: () => tr('Checkout preferences'),
  statuses: PREFERENCE_STATUS_OPTIONS,
  read: ({ services, caller }, page, filter) => services.preferences.list(caller, page, filter),
  render: preferencesListPage,
  csv: {
    file: 'checkout-preferences',
    header: [
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
    ],
    row: (p, { amount, services }) => [
      p.id,
      iso(p.createdAt),
      p.type,
      p.status,
      amount(p.amountMinor, p.currency),
      p.currency,
      p.title,
      p.externalId ?? '',
      p.payer.email ?? '',
      p.paymentOrderId ?? '',
      iso(p.expiresAt),
      services.preferences.checkoutUrl(p.id),
    ],
  },
};

async function listCheckoutPreferences(r: DashRequest) {
  return showList(r, PREFERENCES);
}

async function exportCheckoutPreferences(r: DashRequest) {
  return exportList(r, PREFERENCES);
}

async function showCheckoutPreference(r: DashRequest<{ Params: { id: string } }>) {
  const { req, services, caller, render } = r;
  const pref = await services.preferences.get(caller, req.params.id);
  const orders = await services.orders.list(caller, { limit: 100, cursor: null }, { checkoutPreferenceId: pref.id });
  const checkoutUrl = services.preferences.checkoutUrl(pref.id);
  const qr = pref.status === 'OPEN' ? trustedMarkup(await qrSvg(checkoutUrl, 'QR code of the checkout link')) : null;
  const created = formField(req.query, 'created') === '1';
  return render(
    'payments',
    pref.title,
    preferencePage(paymentsKit(r), { pref, checkoutUrl, qr, orders: orders.data, created }),
  );
}

async function newPaymentForm(r: DashRequest) {
  const blank = { title: '', amount: '', currency: 'USD', expires_in: '1440', methods: [], external_id: '' };
  return createPage(r, blank, []);
}

/** A one-time payment: the form checked here, the rest by the preferences' service, then the audit entry. */
async function createPayment(r: DashRequest) {
  const { req, ctx, services, caller, audit, redirect } = r;
  const form = readCreateForm(req.body);
  const { problems, amount, expiry, types } = checkCreateForm(form);
  if (problems.length > 0) {
    return createPage(r, form, problems);
  }
  let pref: CheckoutPreference;
  try {
    pref = await services.preferences.create(caller, {
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
      return createPage(r, form, error.messages);
    }
    throw error;
  }
  await audit({
    action: 'checkout_preference.create',
    objectType: 'checkout_preference',
    objectId: pref.id,
    detail: {
      mode: ctx.mode,
      amount: formatMinor(pref.amountMinor, services.currencies.decimalsOf(pref.currency)),
      currency: pref.currency,
    },
  });
  return redirect(`${ctx.base}/checkout_preferences/${pref.id}?created=1`);
}

function createPage(r: DashRequest, form: CreateForm, problems: readonly string[]) {
  return r.render(
    'payments',
    tr('Create a payment'),
    createPaymentPage(paymentsKit(r), {
      form,
      currencies: r.services.currencies.all().map((c) => ({ code: c.code, name: c.name })),
      problems,
    }),
    problems.length > 0 ? 400 : 200,
  );
}

function readCreateForm(body: unknown): CreateForm {
  return {
    title: formField(body, 'title').trim(),
    amount: formField(body, 'amount').trim(),
    currency: formField(body, 'currency').trim(),
    expires_in: formField(body, 'expires_in').trim(),
    methods: formList(body, 'methods'),
    external_id: formField(body, 'external_id').trim(),
  };
}

/** What the form can tell before the service sees it: lengths, the amount's shape, the choices offered. */
function checkCreateForm(form: CreateForm) {
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
  return { problems, amount, expiry, types };
}
