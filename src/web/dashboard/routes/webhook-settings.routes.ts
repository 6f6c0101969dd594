import type { AuditInput } from '../../../domain/dashboard/audit.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { confirmStep } from '../views/layout.ts';
import { secretShownPage } from '../views/webhook-endpoints.views.ts';

/**
 * The preference webhooks' signing secret of this mode (one per merchant and mode): revealing it
 * and rotating it, each behind a confirmation step. The webhook endpoints page links here.
 */
export function webhookSettingsRoutes(r: DashRouter): void {
  r.page('/webhook_settings/secret', confirmRevealSecret, 'webhooks.write');
  r.page('/webhook_settings/rotate', confirmRotateSecret, 'webhooks.write');
  r.action('/webhook_settings/secret', 'webhooks.write', revealSecret);
  r.action('/webhook_settings/rotate', 'webhooks.write', rotateSecret);
}

/** One audit entry about the merchant's webhook settings, its detail led by the mode. */
function auditSettings({ ctx, audit }: DashRequest, action: string, detail: AuditInput['detail']) {
  return audit({
    action,
    objectType: 'webhook_settings',
    objectId: ctx.merchantId,
    detail: { mode: ctx.mode, ...detail },
  });
}

async function confirmRevealSecret(r: DashRequest) {
  return confirmSecretStep(r, 'reveal');
}

async function confirmRotateSecret(r: DashRequest) {
  return confirmSecretStep(r, 'rotate');
}

function confirmSecretStep({ ctx, render, csrfToken }: DashRequest, kind: 'reveal' | 'rotate') {
  return render(
    'developers',
    kind === 'reveal' ? 'Signing secret' : 'Rotate signing secret',
    confirmStep({
      csrf: csrfToken(),
      heading: kind === 'reveal' ? 'Reveal the signing secret?' : 'Rotate the signing secret?',
      explanation:
        kind === 'reveal'
          ? tr(
              "The secret that signs deliveries to your checkout preferences' status_changes_webhook URLs ({mode} mode). Make sure nobody is looking at your screen.",
              { mode: ctx.mode },
            )
          : tr(
              'A new secret signs deliveries to preference webhooks from now on; the current one keeps signing alongside it for a while.',
            ),
      action: `${ctx.base}/webhook_settings/${kind === 'reveal' ? 'secret' : 'rotate'}`,
      button: kind === 'reveal' ? 'Reveal secret' : 'Rotate secret',
      cancelHref: `${ctx.base}/webhook_endpoints`,
    }),
  );
}

async function revealSecret(r: DashRequest) {
  const { ctx, services, caller, render } = r;
  const secret = await services.webhooks.secrets.merchantSigningSecret(caller);
  await auditSettings(r, 'webhook_settings.reveal', {});
  return render(
    'developers',
    tr('Signing secret'),
    secretShownPage({
      heading: tr('Signing secret for preference webhooks'),
      intro: tr('Deliveries to status_changes_webhook URLs ({mode} mode) are signed with this secret.', {
        mode: ctx.mode,
      }),
      secret,
      previousExpiresAt: null,
      backHref: `${ctx.base}/webhook_endpoints`,
      backLabel: tr('Done: back to webhook endpoints'),
    }),
  );
}

async function rotateSecret(r: DashRequest) {
  const { ctx, services, caller, render } = r;
  const rotated = await services.webhooks.secrets.rotateMerchantSecret(caller);
  await auditSettings(r, 'webhook_settings.rotate', {
    previous_secret_expires_at: new Date(rotated.previousExpiresAt).toISOString(),
  });
  return render(
    'developers',
    tr('New signing secret'),
    secretShownPage({
      heading: tr('New signing secret for preference webhooks'),
      intro: tr('Deliveries to status_changes_webhook URLs ({mode} mode) are signed with this secret from now on.', {
        mode: ctx.mode,
      }),
      secret: rotated.secret,
      previousExpiresAt: rotated.previousExpiresAt,
      backHref: `${ctx.base}/webhook_endpoints`,
      backLabel: tr('Done: back to webhook endpoints'),
    }),
  );
}
