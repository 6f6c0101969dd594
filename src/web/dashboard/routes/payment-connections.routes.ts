import type { ConnectionCheck } from '../../../domain/connectors/connection-check.service.ts';
import { AppError } from '../../../domain/shared/errors.ts';
import { formField } from '../../kit/form-input.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { confirmStep } from '../views/layout.ts';
import type { StripeField } from '../views/payment-connections.views.ts';
import { connectionsPage } from '../views/payment-connections.views.ts';
import type { FieldErrors } from '../views/settings.views.ts';

/**
 * Settings → Payment connections (INTERFACE §11): the merchant's own processor accounts, one
 * connection per mode, made and removed through the same services as the command line, so the
 * keys are checked with one real call before anything is stored, sealed, and every change
 * is in the audit log under the signed-in user. Owners and admins only (`settings.write`),
 * the page included: it names the accounts that take the merchant's money.
 */
export function paymentConnectionsRoutes(r: DashRouter): void {
  r.page('/settings/connections', showConnections, 'settings.write');
  r.action('/settings/connections/stripe', 'settings.write', connectStripe);
  r.action('/settings/connections/stripe/test', 'settings.write', testStripe);
  // Disconnecting goes through a confirmation page, as every destructive action does.
  r.page('/settings/connections/stripe/remove', confirmStripeRemoval, 'settings.write');
  r.action('/settings/connections/stripe/remove', 'settings.write', removeStripe);
}

type Notice = { Querystring: { connected?: string; removed?: string } };

type PageInput = {
  publishableKey?: string;
  problems?: readonly string[];
  errors?: FieldErrors<StripeField>;
  check?: ConnectionCheck;
  notice?: string | null;
  warning?: string | null;
  status?: number;
};

async function renderConnections(r: DashRequest, input: PageInput = {}) {
  const { ctx, services, render, csrfToken } = r;
  const shown = await services.connectors.connections.shown(ctx.merchantId, ctx.mode);
  return render(
    'settings',
    tr('Payment connections'),
    connectionsPage({
      mode: ctx.mode,
      notice: input.notice ?? null,
      warning: input.warning ?? null,
      stripe: {
        base: ctx.base,
        csrf: csrfToken(),
        mode: ctx.mode,
        connection: shown.find((c) => c.provider === 'stripe') ?? null,
        publishableKey: input.publishableKey ?? '',
        problems: input.problems ?? [],
        errors: input.errors ?? {},
        check: input.check ?? null,
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
        : null;
  return renderConnections(r as DashRequest, { notice });
}

/** The field a message of the connection checks is about, from the name it starts with. */
const FIELD_OF_MESSAGE: [string, StripeField][] = [
  ['secret key', 'secret_key'],
  ['publishable key', 'publishable_key'],
  ['webhook secret', 'webhook_secret'],
];

function errorsOf(messages: readonly string[]): FieldErrors<StripeField> {
  const errors: FieldErrors<StripeField> = {};
  for (const message of messages) {
    const field = FIELD_OF_MESSAGE.find(([name]) => message.startsWith(name))?.[1];
    if (field) {
      errors[field] = [...(errors[field] ?? []), message];
    }
  }
  return errors;
}

/** Why the service refused the keys, as the form shows it, with the answer's status; anything else is thrown again. */
function refusal(error: unknown): { problems: readonly string[]; status: number } {
  if (error instanceof AppError) {
    switch (error.code) {
      case 'WRONG_INPUT':
        return { problems: error.messages, status: 400 };
      case 'CONFLICT':
        return { problems: [tr('Stripe is already connected in this mode: disconnect it first.')], status: 409 };
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
  const again = (problems: readonly string[], status: number, errors = errorsOf(problems)) =>
    renderConnections(r, { publishableKey: publishableKey.slice(0, 300), problems, errors, status });

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
    const refused = refusal(error);
    return again(refused.problems, refused.status);
  }
  return redirect(`${ctx.base}/settings/connections?connected=stripe`);
}

async function testStripe(r: DashRequest) {
  const { ctx, services } = r;
  const check = await services.connectors.checks.check(ctx.merchantId, 'stripe', ctx.mode);
  return renderConnections(r, { check });
}

async function confirmStripeRemoval({ ctx, services, render, csrfToken }: DashRequest) {
  const shown = await services.connectors.connections.shown(ctx.merchantId, ctx.mode);
  const connection = shown.find((c) => c.provider === 'stripe');
  if (!connection) {
    throw new AppError('NOT_FOUND', [`no Stripe connection in ${ctx.mode} mode`]);
  }
  const heading =
    ctx.mode === 'live' ? tr('Disconnect Stripe from live mode?') : tr('Disconnect Stripe from test mode?');
  return render(
    'settings',
    heading,
    confirmStep({
      csrf: csrfToken(),
      heading,
      explanation: tr(
        'Cobro deletes the webhook endpoint it created in your Stripe account and forgets the keys of account {account}. To take card payments through Stripe again, connect it again.',
        { account: connection.accountId },
      ),
      action: `${ctx.base}/settings/connections/stripe/remove`,
      button: tr('Disconnect'),
      cancelHref: `${ctx.base}/settings/connections`,
    }),
  );
}

async function removeStripe(r: DashRequest) {
  const { ctx, services, redirect } = r;
  const result = await services.connectors.removal.remove(ctx.merchantId, 'stripe', ctx.mode, ctx.actor);
  if (result.warning) {
    return renderConnections(r, {
      notice: tr('Stripe disconnected: its keys are forgotten.'),
      warning: tr(
        'The webhook endpoint {endpoint} could not be deleted in your Stripe account: delete it in the Stripe dashboard.',
        { endpoint: result.removed.webhookEndpointId ?? '' },
      ),
    });
  }
  return redirect(`${ctx.base}/settings/connections?removed=stripe`);
}
