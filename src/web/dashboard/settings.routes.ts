import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_LOGO_BYTES } from '../../domain/merchants/logo-image.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { ProfileField } from '../../domain/merchants/merchant-profile.ts';
import type { PaymentSettingsField, PaymentSettingsInput } from '../../domain/merchants/payment-settings.ts';
import { logoPath } from '../checkout/brand.ts';
import { formField } from '../checkout/form-input.ts';
import type { DashContext, DashTools } from './dash-tools.ts';
import { t as tr } from './i18n.ts';
import { confirmStep } from './views/layout.ts';
import type { PaymentFormValues, ProfileFormValues, ProfilePageModel } from './views/settings.views.ts';
import {
  PAYMENT_FIELD_LABELS,
  PAYMENT_FIELDS,
  paymentSettingsPage,
  paymentValuesOf,
  profilePage,
  profileValuesOf,
} from './views/settings.views.ts';

type Req = FastifyRequest;
type Reply = FastifyReply;

const PROFILE_FIELDS: readonly ProfileField[] = ['display_name', 'support_email', 'accent_color'];

const SAVED = new Set(['profile', 'logo', 'logo-removed'] as const);
type Saved = ProfilePageModel['saved'];

function savedOf(req: Req): Saved {
  const value = (req.query as { saved?: unknown }).saved;
  return SAVED.has(value as 'profile') ? (value as Saved) : null;
}

/**
 * Settings that concern the business: the profile payers see (display name, support e-mail,
 * accent colour, logo) and the payment settings (PIX key, extended public keys, bank account).
 * Every role reads them; `settings.write` changes them. Both are per merchant, so the live and
 * the test pages show the same settings (the test page also shows the test defaults in use).
 */
export function registerSettingsRoutes(scope: FastifyInstance, t: DashTools, mode: Mode, base: string): void {
  const { deps } = t;

  // ---- Business profile ------------------------------------------------------------------------

  const showProfile = async (
    req: Req,
    reply: Reply,
    ctx: DashContext,
    input: { values?: ProfileFormValues; errors?: Partial<Record<ProfileField, string[]>>; logoError?: string } = {},
  ): Promise<Reply> => {
    const profile = await deps.profiles.get(ctx.merchantId);
    const failed = input.errors !== undefined || input.logoError !== undefined;
    return t.sendShell(
      req,
      reply,
      ctx,
      'settings',
      tr('Business profile'),
      profilePage({
        base,
        csrf: t.csrfToken(req, reply),
        canWrite: ctx.can('settings.write'),
        role: ctx.role,
        profile,
        logoSrc: profile.logo ? logoPath(profile.merchantId, profile.logo) : null,
        values: input.values ?? profileValuesOf(profile),
        errors: input.errors ?? {},
        logoError: input.logoError ?? null,
        saved: failed ? null : savedOf(req),
      }),
      failed ? 400 : 200,
    );
  };

  scope.get(`${base}/settings/profile`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    return ctx ? showProfile(req, reply, ctx) : reply;
  });

  scope.post(`${base}/settings/profile`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'settings.write');
    if (!ctx) {
      return reply;
    }
    const values = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, formField(req.body, f)])) as ProfileFormValues;
    const result = await deps.profiles.update(ctx.merchantId, {
      displayName: values.display_name,
      supportEmail: values.support_email,
      accentColor: values.accent_color,
    });
    if (!result.ok) {
      const errors: Partial<Record<ProfileField, string[]>> = {};
      for (const problem of result.error) {
        errors[problem.field] = [...(errors[problem.field] ?? []), problem.message];
      }
      return showProfile(req, reply, ctx, { values, errors });
    }
    const saved = result.value;
    await deps.dashboard.audit.record(ctx.actor, {
      merchantId: ctx.merchantId,
      action: 'merchant.profile.update',
      objectType: 'merchant',
      objectId: ctx.merchantId,
      detail: {
        display_name: saved.storedDisplayName,
        support_email: saved.supportEmail,
        accent_color: saved.accentColor,
      },
    });
    return t.seeOther(reply, `${base}/settings/profile?saved=profile`);
  });

  // The logo is the only upload of the dashboard: the multipart parser is registered for this
  // one route, in its own encapsulated scope, with the logo's size as its file limit.
  void scope.register(async (upload) => {
    await upload.register(multipart, {
      // Over the limit the file is cut short and marked truncated (not thrown), so the rest of the
      // request is still read and the form can say what went wrong.
      throwFileSizeLimit: false,
      limits: {
        fileSize: MAX_LOGO_BYTES,
        files: 1,
        fields: 4,
        parts: 5,
        fieldSize: 1024,
        fieldNameSize: 64,
        headerPairs: 50,
      },
    });
    upload.post(`${base}/settings/profile/logo`, async (req, reply) => {
      // 1. Read the form (bounded by the limits above). The CSRF token is one of its fields, and
      //    the dashboard's checks read it from req.body, so the text fields are put there.
      let file: { bytes: Buffer; truncated: boolean } | null = null;
      if (req.isMultipart()) {
        const fields: Record<string, string> = {};
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            const bytes = await part.toBuffer();
            if (part.fieldname === 'logo' && file === null) {
              file = { bytes, truncated: part.file.truncated };
            }
          } else if (typeof part.value === 'string') {
            fields[part.fieldname] = part.value;
          }
        }
        req.body = fields;
      }
      // 2. Origin, CSRF token, session and role, before anything is looked at.
      const ctx = await t.authorize(req, reply, mode, base, 'settings.write');
      if (!ctx) {
        return reply;
      }
      if (file === null || file.bytes.length === 0) {
        return showProfile(req, reply, ctx, { logoError: tr('Choose an image file for the logo.') });
      }
      if (file.truncated) {
        return showProfile(req, reply, ctx, {
          logoError: tr(
            'The logo is larger than {kb} KB. Make it smaller (a logo rarely needs more than 512 × 512 pixels) and try again.',
            { kb: MAX_LOGO_BYTES / 1024 },
          ),
        });
      }
      // 3. The bytes are judged by themselves (domain/merchants/logo-image.ts), never by name or type.
      const result = await deps.profiles.setLogo(ctx.merchantId, file.bytes);
      if (!result.ok) {
        return showProfile(req, reply, ctx, { logoError: result.error });
      }
      await deps.dashboard.audit.record(ctx.actor, {
        merchantId: ctx.merchantId,
        action: 'merchant.logo.update',
        objectType: 'merchant',
        objectId: ctx.merchantId,
        detail: {
          sha256: result.value.sha256,
          content_type: result.value.content_type,
          width: result.value.width,
          height: result.value.height,
          bytes: file.bytes.length,
        },
      });
      return t.seeOther(reply, `${base}/settings/profile?saved=logo`);
    });
  });

  // Removing the logo goes through a confirmation page, as every destructive action does, so
  // the step holds without JavaScript too.
  scope.get(`${base}/settings/profile/logo/remove`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'settings.write');
    if (!ctx) {
      return reply;
    }
    return t.sendShell(
      req,
      reply,
      ctx,
      'settings',
      tr('Remove logo'),
      confirmStep({
        csrf: t.csrfToken(req, reply),
        heading: tr('Remove the logo?'),
        explanation: tr('Payers will see only your display name on the checkout, in e-mails and on receipts.'),
        action: `${base}/settings/profile/logo/remove`,
        button: tr('Remove logo'),
        cancelHref: `${base}/settings/profile`,
      }),
    );
  });

  scope.post(`${base}/settings/profile/logo/remove`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'settings.write');
    if (!ctx) {
      return reply;
    }
    if (await deps.profiles.removeLogo(ctx.merchantId)) {
      await deps.dashboard.audit.record(ctx.actor, {
        merchantId: ctx.merchantId,
        action: 'merchant.logo.remove',
        objectType: 'merchant',
        objectId: ctx.merchantId,
      });
    }
    return t.seeOther(reply, `${base}/settings/profile?saved=logo-removed`);
  });

  // ---- Payment settings ------------------------------------------------------------------------

  const showPayments = async (
    req: Req,
    reply: Reply,
    ctx: DashContext,
    input: { values?: PaymentFormValues; errors?: Partial<Record<PaymentSettingsField, string[]>> } = {},
  ): Promise<Reply> => {
    const view = await deps.paymentSettings.view(ctx.merchantId, mode);
    return t.sendShell(
      req,
      reply,
      ctx,
      'settings',
      tr('Payment settings'),
      paymentSettingsPage({
        base,
        csrf: t.csrfToken(req, reply),
        canWrite: ctx.can('settings.write'),
        role: ctx.role,
        mode,
        view,
        values: input.values ?? paymentValuesOf(view),
        errors: input.errors ?? {},
        saved: input.errors === undefined && (req.query as { saved?: unknown }).saved === '1',
      }),
      input.errors ? 400 : 200,
    );
  };

  scope.get(`${base}/settings/payments`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    return ctx ? showPayments(req, reply, ctx) : reply;
  });

  scope.post(`${base}/settings/payments`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'settings.write');
    if (!ctx) {
      return reply;
    }
    const values = Object.fromEntries(
      PAYMENT_FIELDS.map((f) => [f, formField(req.body, f).trim()]),
    ) as PaymentFormValues;
    // An empty field is one not given; the Bitcoin network matters only with a key.
    const input: PaymentSettingsInput = {};
    for (const field of PAYMENT_FIELDS) {
      if (values[field] !== '' && (field !== 'btc_network' || values.btc_xpub !== '')) {
        input[field] = values[field];
      }
    }
    const before = await deps.merchants.getSettings(ctx.merchantId);
    const result = await deps.paymentSettings.replace(ctx.merchantId, input, (f) => PAYMENT_FIELD_LABELS[f]);
    if (!result.ok) {
      const errors: Partial<Record<PaymentSettingsField, string[]>> = {};
      for (const problem of result.problems) {
        errors[problem.field] = [...(errors[problem.field] ?? []), problem.message];
      }
      return showPayments(req, reply, ctx, { values, errors });
    }
    const after = result.stored;
    const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    await deps.dashboard.audit.record(ctx.actor, {
      merchantId: ctx.merchantId,
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
    return t.seeOther(reply, `${base}/settings/payments?saved=1`);
  });
}
