import type { PaymentSettingsField, PaymentSettingsInput } from '../../../domain/merchants/payment-settings.ts';
import { formField } from '../../kit/form-input.ts';
import { html } from '../../kit/html.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import type { FieldErrors, PaymentFormValues } from '../views/settings.views.ts';
import {
  fieldErrors,
  offerRows,
  PAYMENT_FIELD_LABELS,
  PAYMENT_FIELDS,
  paymentSettingsPage,
  paymentValuesOf,
} from '../views/settings.views.ts';

/**
 * The settings section's index, and the payment settings (PIX key, extended public keys, bank
 * account): every role reads them, `settings.write` changes them. They are per merchant, so the
 * live and the test pages show the same settings (the test page also shows the test defaults in use).
 */
export function settingsRoutes(r: DashRouter): void {
  r.page('/settings', showSettingsIndex);
  r.page('/settings/payments', showPaymentSettings);
  r.action('/settings/payments', 'settings.write', savePaymentSettings);
}

async function showSettingsIndex({ ctx, render }: DashRequest) {
  const { base } = ctx;
  const links = [
    { href: `${base}/settings/profile`, label: tr('Business profile'), show: true },
    { href: `${base}/settings/payments`, label: tr('Payment settings'), show: true },
    { href: `${base}/settings/connections`, label: tr('Payment connections'), show: ctx.can('settings.write') },
    { href: `${base}/settings/security`, label: tr('Security'), show: true },
    { href: `${base}/settings/team`, label: tr('Team'), show: ctx.can('team.manage') },
    { href: `${base}/settings/audit`, label: tr('Audit log'), show: ctx.can('team.manage') },
  ];
  return render(
    'settings',
    'Settings',
    html`<h1>Settings</h1><ul>${links.filter((l) => l.show).map((l) => html`<li><a href="${l.href}">${l.label}</a></li>`)}</ul>`,
  );
}

/** The payment settings page: the stored values, or the values just sent with their errors (400). */
async function renderPaymentSettings(
  { req, ctx, services, render, csrfToken }: DashRequest,
  input: { values?: PaymentFormValues; errors?: FieldErrors<PaymentSettingsField> } = {},
) {
  const view = await services.paymentSettings.view(ctx.merchantId, ctx.mode);
  // Live mode: what a live payer is offered now, from the settings just read (test mode offers everything).
  const offers =
    ctx.mode === 'live'
      ? offerRows(
          await services.paymentMethods.all(),
          await services.availability.offerOf(ctx.merchantId, 'live', view.stored),
        )
      : null;
  return render(
    'settings',
    tr('Payment settings'),
    paymentSettingsPage({
      base: ctx.base,
      csrf: csrfToken(),
      canWrite: ctx.can('settings.write'),
      role: ctx.role,
      mode: ctx.mode,
      view,
      offers,
      values: input.values ?? paymentValuesOf(view),
      errors: input.errors ?? {},
      saved: input.errors === undefined && (req.query as { saved?: unknown }).saved === '1',
    }),
    input.errors ? 400 : 200,
  );
}

async function showPaymentSettings(r: DashRequest) {
  return renderPaymentSettings(r);
}

async function savePaymentSettings(r: DashRequest) {
  const { req, ctx, services, redirect, audit } = r;
  const values = Object.fromEntries(PAYMENT_FIELDS.map((f) => [f, formField(req.body, f).trim()])) as PaymentFormValues;
  // An empty field is one not given; the Bitcoin network matters only with a key.
  const input: PaymentSettingsInput = {};
  for (const field of PAYMENT_FIELDS) {
    if (values[field] !== '' && (field !== 'btc_network' || values.btc_xpub !== '')) {
      input[field] = values[field];
    }
  }
  const before = await services.merchants.getSettings(ctx.merchantId);
  const result = await services.paymentSettings.replace(ctx.merchantId, input, (f) => PAYMENT_FIELD_LABELS[f]);
  if (!result.ok) {
    return renderPaymentSettings(r, { values, errors: fieldErrors(result.problems) });
  }
  const after = result.stored;
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  await audit({
    action: 'merchant.payment_settings.update',
    objectType: 'merchant',
    objectId: ctx.merchantId,
    // Which methods are set up now and which changed; the values stay in the settings.
    detail: {
      pix: after.pix !== undefined,
      bitcoin: after.crypto?.btc_xpub !== undefined,
      evm: after.crypto?.evm_xpub !== undefined,
      bank: after.bank !== undefined,
      changed:
        [
          ...(same(before.pix, after.pix) ? [] : ['pix']),
          ...(same(before.crypto, after.crypto) ? [] : ['crypto']),
          ...(same(before.bank, after.bank) ? [] : ['bank']),
        ].join(',') || 'nothing',
    },
  });
  return redirect(`${ctx.base}/settings/payments?saved=1`);
}
