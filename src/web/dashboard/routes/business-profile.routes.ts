import type { FastifyRequest } from 'fastify';
import { MAX_LOGO_BYTES } from '../../../domain/merchants/logo-image.ts';
import type { ProfileField } from '../../../domain/merchants/merchant-profile.ts';
import { logoPath } from '../../kit/brand.ts';
import { formField } from '../../kit/form-input.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { acceptUploads, uploadedFile } from '../uploads.ts';
import { confirmStep } from '../views/layout.ts';
import type { FieldErrors, ProfileFormValues, ProfilePageModel } from '../views/settings.views.ts';
import { fieldErrors, profilePage, profileValuesOf } from '../views/settings.views.ts';

/**
 * The business profile payers see: display name, support e-mail, accent colour and logo. Every
 * role reads it; `settings.write` changes it. It is per merchant: live and test show the same.
 */
export function businessProfileRoutes(r: DashRouter): void {
  r.page('/settings/profile', showProfile);
  r.action('/settings/profile', 'settings.write', saveProfile);
  r.within(acceptLogoUploads, (upload) => upload.action('/settings/profile/logo', 'settings.write', uploadLogo));
  // Removing the logo goes through a confirmation page, as every destructive action does, so
  // the step holds without JavaScript too.
  r.page('/settings/profile/logo/remove', confirmLogoRemoval, 'settings.write');
  r.action('/settings/profile/logo/remove', 'settings.write', removeLogo);
}

const PROFILE_FIELDS: readonly ProfileField[] = ['display_name', 'support_email', 'accent_color'];

const SAVED = new Set(['profile', 'logo', 'logo-removed'] as const);
type Saved = ProfilePageModel['saved'];

function savedOf(req: FastifyRequest): Saved {
  const value = (req.query as { saved?: unknown }).saved;
  return SAVED.has(value as 'profile') ? (value as Saved) : null;
}

/** The profile page: the stored values, or the values just sent with their errors (400). */
async function renderProfile(
  { req, ctx, services, render, csrfToken }: DashRequest,
  input: { values?: ProfileFormValues; errors?: FieldErrors<ProfileField>; logoError?: string } = {},
) {
  const profile = await services.profiles.get(ctx.merchantId);
  const failed = input.errors !== undefined || input.logoError !== undefined;
  return render(
    'settings',
    tr('Business profile'),
    profilePage({
      base: ctx.base,
      csrf: csrfToken(),
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
}

async function showProfile(r: DashRequest) {
  return renderProfile(r);
}

async function saveProfile(r: DashRequest) {
  const { req, ctx, services, redirect, audit } = r;
  const values = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, formField(req.body, f)])) as ProfileFormValues;
  const result = await services.profiles.update(ctx.merchantId, {
    displayName: values.display_name,
    supportEmail: values.support_email,
    accentColor: values.accent_color,
  });
  if (!result.ok) {
    return renderProfile(r, { values, errors: fieldErrors(result.error) });
  }
  const saved = result.value;
  await audit({
    action: 'merchant.profile.update',
    objectType: 'merchant',
    objectId: ctx.merchantId,
    detail: {
      display_name: saved.storedDisplayName,
      support_email: saved.supportEmail,
      accent_color: saved.accentColor,
    },
  });
  return redirect(`${ctx.base}/settings/profile?saved=profile`);
}

// ---- Logo upload ------------------------------------------------------------------------------

/**
 * The logo is one file of at most the logo's size, with the CSRF token beside it: the multipart
 * parser is registered for its route alone.
 */
const acceptLogoUploads = acceptUploads({ fileSize: MAX_LOGO_BYTES, files: 1, fields: 4, fieldSize: 1024 });

async function uploadLogo(r: DashRequest) {
  const { req, ctx, services, redirect, audit } = r;
  const file = uploadedFile(req, 'logo');
  if (file === null) {
    return renderProfile(r, { logoError: tr('Choose an image file for the logo.') });
  }
  if (file.truncated) {
    return renderProfile(r, {
      logoError: tr(
        'The logo is larger than {kb} KB. Make it smaller (a logo rarely needs more than 512 × 512 pixels) and try again.',
        { kb: MAX_LOGO_BYTES / 1024 },
      ),
    });
  }
  // The bytes are judged by themselves (domain/merchants/logo-image.ts), never by name or type.
  const result = await services.profiles.setLogo(ctx.merchantId, file.bytes);
  if (!result.ok) {
    return renderProfile(r, { logoError: result.error });
  }
  await audit({
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
  return redirect(`${ctx.base}/settings/profile?saved=logo`);
}

// ---- Logo removal -----------------------------------------------------------------------------

async function confirmLogoRemoval({ ctx, render, csrfToken }: DashRequest) {
  return render(
    'settings',
    tr('Remove logo'),
    confirmStep({
      csrf: csrfToken(),
      heading: tr('Remove the logo?'),
      explanation: tr('Payers will see only your display name on the checkout, in e-mails and on receipts.'),
      action: `${ctx.base}/settings/profile/logo/remove`,
      button: tr('Remove logo'),
      cancelHref: `${ctx.base}/settings/profile`,
    }),
  );
}

async function removeLogo({ ctx, services, redirect, audit }: DashRequest) {
  if (await services.profiles.removeLogo(ctx.merchantId)) {
    await audit({ action: 'merchant.logo.remove', objectType: 'merchant', objectId: ctx.merchantId });
  }
  return redirect(`${ctx.base}/settings/profile?saved=logo-removed`);
}
