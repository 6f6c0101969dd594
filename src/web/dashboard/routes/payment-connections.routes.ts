import type { ConnectionView, ConnectorProvider, ShownConnection } from '../../../domain/connectors/connection.ts';
import type { Mode } from '../../../domain/merchants/merchant.ts';
import { AppError } from '../../../domain/shared/errors.ts';
import { formField } from '../../kit/form-input.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { confirmStep } from '../views/layout.ts';
import type {
  PixField,
  PixFormValues,
  PixSectionModel,
  StripeField,
  StripeSectionModel,
} from '../views/payment-connections.views.ts';
import { connectionsPage } from '../views/payment-connections.views.ts';
import type { FieldErrors } from '../views/settings.views.ts';
import {
  acceptCertificateUploads,
  errorsOf,
  PIX_FORM_ORDER,
  pixErrorsOf,
  pixFiles,
  STRIPE_FIELD_OF_MESSAGE,
} from './payment-connections.forms.ts';

/**
 * Settings → Payment connections (INTERFACE §11): the merchant's own processor accounts, one
 * connection per mode, made and removed through the same services as the command line, so the
 * credentials are checked with real calls before anything is stored, sealed, and every change
 * is in the audit log under the signed-in user. Owners and admins only (`settings.write`),
 * the page included: it names the accounts that take the merchant's money.
 */
export function paymentConnectionsRoutes(r: DashRouter): void {
  r.page('/settings/connections', showConnections, 'settings.write');
  r.action('/settings/connections/stripe', 'settings.write', connectStripe);
  r.action('/settings/connections/stripe/test', 'settings.write', testStripe);
  // Disconnecting goes through a confirmation page, as every destructive action does.
  r.page('/settings/connections/stripe/remove', confirmRemoval('stripe'), 'settings.write');
  r.action('/settings/connections/stripe/remove', 'settings.write', removeConnection('stripe'));
  r.within(acceptCertificateUploads, (upload) =>
    upload.action('/settings/connections/pix', 'settings.write', connectPix),
  );
  r.action('/settings/connections/pix/test', 'settings.write', testPix);
  r.page('/settings/connections/pix/remove', confirmRemoval('pix'), 'settings.write');
  r.action('/settings/connections/pix/remove', 'settings.write', removeConnection('pix'));
}

type Notice = { Querystring: { connected?: string; removed?: string } };

type StripeInput = Pick<StripeSectionModel, 'publishableKey' | 'problems' | 'errors' | 'check'>;
type PixInput = Pick<PixSectionModel, 'values' | 'problems' | 'errors' | 'check'>;

type PageInput = {
  stripe?: Partial<StripeInput>;
  pix?: Partial<PixInput>;
  notice?: string | null;
  warning?: string | null;
  status?: number;
};

const NO_PIX_VALUES: PixFormValues = { base_url: '', token_url: '', client_id: '', pix_key: '', profile: 'bcb' };

async function renderConnections(r: DashRequest, input: PageInput = {}) {
  const { ctx, services, render, csrfToken } = r;
  const shown = await services.connectors.connections.shown(ctx.merchantId, ctx.mode);
  const section = { base: ctx.base, csrf: csrfToken(), mode: ctx.mode };
  return render(
    'settings',
    tr('Payment connections'),
    connectionsPage({
      mode: ctx.mode,
      notice: input.notice ?? null,
      warning: input.warning ?? null,
      stripe: {
        ...section,
        connection: shown.find((c) => c.provider === 'stripe') ?? null,
        publishableKey: input.stripe?.publishableKey ?? '',
        problems: input.stripe?.problems ?? [],
        errors: input.stripe?.errors ?? {},
        check: input.stripe?.check ?? null,
      },
      pix: {
        ...section,
        connection: shown.find((c) => c.provider === 'pix') ?? null,
        values: input.pix?.values ?? NO_PIX_VALUES,
        problems: input.pix?.problems ?? [],
        errors: input.pix?.errors ?? {},
        check: input.pix?.check ?? null,
      },
    }),
    input.status ?? 200,
  );
}

async function showConnections(r: DashRequest<Notice>) {
  const q = r.req.query;
  const notice =
    q.connected === 'stripe'
      ? tr('Stripe connected.')
      : q.removed === 'stripe'
        ? tr('Stripe disconnected: its keys are forgotten and the webhook endpoint Cobro created is deleted.')
        : q.connected === 'pix'
          ? tr('PIX connected.')
          : q.removed === 'pix'
            ? tr(
                'PIX disconnected: its credentials and certificate are forgotten and the webhook Cobro registered for the PIX key is removed at your PSP.',
              )
            : null;
  return renderConnections(r as DashRequest, { notice });
}

/**
 * Why the service refused, as the form shows it, with the answer's status; anything else is
 * thrown again. `connected` says a connection of this mode is already there.
 */
function refusal(error: unknown, connected: string): { problems: readonly string[]; status: number } {
  if (error instanceof AppError) {
    switch (error.code) {
      case 'WRONG_INPUT':
        return { problems: error.messages, status: 400 };
      case 'CONFLICT':
        return { problems: [connected], status: 409 };
      case 'SERVICE_UNAVAILABLE':
        return { problems: error.messages, status: 503 };
    }
  }
  throw error;
}
async function connectStripe(r: DashRequest) {
  const { req, ctx, services, redirect } = r;
  const { connecting, access } = services.connectors;
  // The secrets are never rendered back; the publishable key is public.
  const secretKey = formField(req.body, 'secret_key').trim();
  const publishableKey = formField(req.body, 'publishable_key').trim();
  const webhookSecret = formField(req.body, 'webhook_secret').trim();
  const again = (problems: readonly string[], status: number, errors = errorsOf(problems, STRIPE_FIELD_OF_MESSAGE)) =>
    renderConnections(r, { stripe: { publishableKey: publishableKey.slice(0, 300), problems, errors }, status });

  const errors: FieldErrors<StripeField> = {};
  if (secretKey === '') {
    errors.secret_key = [tr('Enter the secret key.')];
  }
  if (publishableKey === '') {
    errors.publishable_key = [tr('Enter the publishable key.')];
  }
  if (errors.secret_key || errors.publishable_key) {
    return again(Object.values(errors).flat(), 400, errors);
  }
  // Keys of the other mode are refused before any call: this page connects its own mode only.
  const keys = access.connector('stripe').keysMode(secretKey, publishableKey);
  if (keys.ok && keys.mode !== ctx.mode) {
    const message =
      keys.mode === 'live'
        ? tr('These are live keys, and this is the test dashboard: connect them on the live dashboard.')
        : tr('These are test keys, and this is the live dashboard: connect them on the test dashboard.');
    return again([message], 400, { secret_key: [message] });
  }
  try {
    await connecting.connect(
      ctx.merchantId,
      'stripe',
      { secretKey, publishableKey, webhookSecret: webhookSecret === '' ? null : webhookSecret },
      ctx.actor,
    );
  } catch (error) {
    const refused = refusal(error, tr('Stripe is already connected in this mode: disconnect it first.'));
    return again(refused.problems, refused.status);
  }
  return redirect(`${ctx.base}/settings/connections?connected=stripe`);
}

async function testStripe(r: DashRequest) {
  const { ctx, services } = r;
  const check = await services.connectors.checks.check(ctx.merchantId, 'stripe', ctx.mode);
  return renderConnections(r, { stripe: { check } });
}

// ---- PIX through the merchant's PSP (API Pix) -------------------------------------------------

async function connectPix(r: DashRequest) {
  const { req, ctx, services, redirect } = r;
  // The secrets and files are never rendered back; the rest goes back into its fields.
  const values: PixFormValues = {
    base_url: formField(req.body, 'base_url').trim().slice(0, 500),
    token_url: formField(req.body, 'token_url').trim().slice(0, 500),
    client_id: formField(req.body, 'client_id').trim().slice(0, 255),
    pix_key: formField(req.body, 'pix_key').trim().slice(0, 77),
    profile: formField(req.body, 'profile').trim().slice(0, 10) || 'bcb',
  };
  const clientSecret = formField(req.body, 'client_secret');
  const files = pixFiles(req, formField(req.body, 'certificate_password'));
  const again = (problems: readonly string[], status: number, errors = pixErrorsOf(problems)) =>
    renderConnections(r, { pix: { values, problems, errors }, status });

  const errors: FieldErrors<PixField> = { ...files.errors };
  const required: [keyof PixFormValues, string][] = [
    ['base_url', tr('Enter your PSP’s API Pix address.')],
    ['client_id', tr('Enter the client ID.')],
    ['pix_key', tr('Enter your PIX key.')],
  ];
  for (const [field, message] of required) {
    if (values[field] === '') {
      errors[field] = [message];
    }
  }
  if (clientSecret === '') {
    errors.client_secret = [tr('Enter the client secret.')];
  }
  if (Object.keys(errors).length > 0 || !files.certificate) {
    return again(
      PIX_FORM_ORDER.flatMap((field) => errors[field] ?? []),
      400,
      errors,
    );
  }
  try {
    await services.connectors.connecting.connectPix(
      ctx.merchantId,
      {
        mode: ctx.mode,
        baseUrl: values.base_url,
        tokenUrl: values.token_url === '' ? null : values.token_url,
        clientId: values.client_id,
        clientSecret,
        certificate: files.certificate,
        ca: files.ca,
        pixKey: values.pix_key,
        profile: values.profile,
      },
      ctx.actor,
    );
  } catch (error) {
    const refused = refusal(error, tr('PIX is already connected in this mode: disconnect it first.'));
    return again(refused.problems, refused.status);
  }
  return redirect(`${ctx.base}/settings/connections?connected=pix`);
}

async function testPix(r: DashRequest) {
  const { ctx, services } = r;
  const check = await services.connectors.checks.check(ctx.merchantId, 'pix', ctx.mode);
  return renderConnections(r, { pix: { check } });
}

// ---- Disconnecting ----------------------------------------------------------------------------

/** What disconnecting says, per processor (read at each request: the words follow the reader's language). */
const REMOVAL: Record<
  ConnectorProvider,
  {
    heading: (mode: Mode) => string;
    explanation: (connection: ShownConnection) => string;
    /** The notice when what Cobro made at the processor could not be removed, and the warning that says so. */
    partly: () => string;
    warning: (removed: ConnectionView) => string;
  }
> = {
  stripe: {
    heading: (mode) =>
      mode === 'live' ? tr('Disconnect Stripe from live mode?') : tr('Disconnect Stripe from test mode?'),
    explanation: (c) =>
      tr(
        'Cobro deletes the webhook endpoint it created in your Stripe account and forgets the keys of account {account}. To take card payments through Stripe again, connect it again.',
        { account: c.accountId },
      ),
    partly: () => tr('Stripe disconnected: its keys are forgotten.'),
    warning: (removed) =>
      tr(
        'The webhook endpoint {endpoint} could not be deleted in your Stripe account: delete it in the Stripe dashboard.',
        { endpoint: removed.webhookEndpointId ?? '' },
      ),
  },
  pix: {
    heading: (mode) => (mode === 'live' ? tr('Disconnect PIX from live mode?') : tr('Disconnect PIX from test mode?')),
    explanation: (c) =>
      tr(
        'Cobro removes the webhook it registered at your PSP for the PIX key {key} and forgets the credentials and the certificate. PIX charges still open lapse at your PSP. To make PIX charges through your PSP again, connect it again.',
        { key: c.accountId },
      ),
    partly: () => tr('PIX disconnected: its credentials and certificate are forgotten.'),
    warning: (removed) =>
      tr('The webhook of the PIX key {key} could not be removed at your PSP: remove it in your PSP’s portal.', {
        key: removed.accountId,
      }),
  },
};

/** The confirmation page of disconnecting `provider` in this mode; 404 without such a connection. */
function confirmRemoval(provider: ConnectorProvider) {
  return async ({ ctx, services, render, csrfToken }: DashRequest) => {
    const shown = await services.connectors.connections.shown(ctx.merchantId, ctx.mode);
    const connection = shown.find((c) => c.provider === provider);
    if (!connection) {
      throw new AppError('NOT_FOUND', [`no ${provider} connection in ${ctx.mode} mode`]);
    }
    const words = REMOVAL[provider];
    const heading = words.heading(ctx.mode);
    return render(
      'settings',
      heading,
      confirmStep({
        csrf: csrfToken(),
        heading,
        explanation: words.explanation(connection),
        action: `${ctx.base}/settings/connections/${provider}/remove`,
        button: tr('Disconnect'),
        cancelHref: `${ctx.base}/settings/connections`,
      }),
    );
  };
}

/**
 * Disconnects `provider` in this mode, as `connect remove` does; when what Cobro made at the
 * processor could not be removed, the page says what is left for the merchant to remove.
 */
function removeConnection(provider: ConnectorProvider) {
  return async (r: DashRequest) => {
    const { ctx, services, redirect } = r;
    const result = await services.connectors.removal.remove(ctx.merchantId, provider, ctx.mode, ctx.actor);
    if (result.warning) {
      const words = REMOVAL[provider];
      return renderConnections(r, { notice: words.partly(), warning: words.warning(result.removed) });
    }
    return redirect(`${ctx.base}/settings/connections?removed=${provider}`);
  };
}
