import type { AuditInput } from '../../../domain/dashboard/audit.ts';
import { AppError } from '../../../domain/shared/errors.ts';
import { EVENT_TYPES } from '../../../domain/webhooks/webhook.service.ts';
import type { WebhookEndpoint } from '../../../domain/webhooks/webhook.ts';
import { formField } from '../../kit/form-input.ts';
import { cursorParam, formList, parseCursorParam, withQuery } from '../../kit/query.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { confirmStep } from '../views/layout.ts';
import type { EndpointFormValues } from '../views/webhook-endpoints.views.ts';
import { endpointFormPage, endpointListPage, endpointPage, secretShownPage } from '../views/webhook-endpoints.views.ts';

/**
 * Webhook endpoints (the webhook services, called as the API's routes call them): the list, the
 * form, an endpoint with its recent deliveries, enabling, test events, its signing secret, deletion.
 */
export function webhookEndpointsRoutes(r: DashRouter): void {
  r.page('/webhook_endpoints', showEndpoints);
  r.page('/webhook_endpoints/new', newEndpointForm, 'webhooks.write');
  r.action('/webhook_endpoints', 'webhooks.write', createEndpoint);
  r.page('/webhook_endpoints/:id', showEndpoint);
  r.page('/webhook_endpoints/:id/edit', editEndpointForm, 'webhooks.write');
  r.action('/webhook_endpoints/:id/edit', 'webhooks.write', saveEndpoint);
  r.action('/webhook_endpoints/:id/enable', 'webhooks.write', enableEndpoint);
  r.action('/webhook_endpoints/:id/disable', 'webhooks.write', disableEndpoint);
  r.action('/webhook_endpoints/:id/test', 'webhooks.write', sendTestEvent);
  r.page('/webhook_endpoints/:id/rotate', confirmRotateSecret, 'webhooks.write');
  r.action('/webhook_endpoints/:id/rotate', 'webhooks.write', rotateSecret);
  r.page('/webhook_endpoints/:id/delete', confirmDeleteEndpoint, 'webhooks.write');
  r.action('/webhook_endpoints/:id/delete', 'webhooks.write', deleteEndpoint);
}

const PAGE_SIZE = 50;
/** The endpoint page's "recent deliveries". */
const RECENT_DELIVERIES = 20;

type ListQuery = { Querystring: { after?: string; deleted?: string } };
type IdParams = { Params: { id: string } };
type EndpointQuery = IdParams & {
  Querystring: { saved?: string; tested?: string; enabled?: string; disabled?: string };
};

function readEndpointForm(body: unknown): EndpointFormValues {
  return {
    url: formField(body, 'url').trim().slice(0, 4096),
    description: formField(body, 'description').trim().slice(0, 1000),
    eventTypes: formList(body, 'event_types').map((x) => x.slice(0, 64)),
  };
}

/** What the API's schema checks before the service (lengths); the URL policy and the types are the service's. */
function endpointFormProblems(v: EndpointFormValues): string[] {
  const problems: string[] = [];
  if (v.url === '') {
    problems.push('URL is required.');
  } else if (v.url.length > 2048) {
    problems.push('URL must be at most 2048 characters.');
  }
  if ([...v.description].length > 500) {
    problems.push('Description must be at most 500 characters.');
  }
  return problems;
}

/** The form's values as the service takes them: no type checked means every type. */
const endpointInput = (v: EndpointFormValues) => ({
  url: v.url,
  eventTypes: v.eventTypes.length > 0 ? [...v.eventTypes] : null,
  description: v.description === '' ? null : v.description,
});

/** One audit entry about endpoint `id`, its detail led by the mode (as every Developers entry). */
function auditEndpoint(
  { ctx, audit }: Pick<DashRequest, 'ctx' | 'audit'>,
  action: string,
  id: string,
  detail: AuditInput['detail'],
) {
  return audit({ action, objectType: 'webhook_endpoint', objectId: id, detail: { mode: ctx.mode, ...detail } });
}

/**
 * A created or saved endpoint's audit detail. Its event types are stored as the list they are (the
 * detail is kept as JSON), although the detail's type names single values only.
 */
const endpointDetail = (e: WebhookEndpoint) =>
  ({ url: e.url, event_types: e.eventTypes }) as unknown as AuditInput['detail'];

/** The service's refusal of the form's values (its messages); any other error is thrown again. */
function refusal(error: unknown): readonly string[] {
  if (error instanceof AppError && error.code === 'WRONG_INPUT') {
    return error.messages;
  }
  throw error;
}

function sendEndpointForm(
  { ctx, render, csrfToken }: Pick<DashRequest, 'ctx' | 'render' | 'csrfToken'>,
  values: EndpointFormValues,
  problems: readonly string[],
  editing: WebhookEndpoint | null,
  status = 200,
) {
  const { base } = ctx;
  return render(
    'developers',
    editing ? tr('Edit endpoint') : tr('New webhook endpoint'),
    endpointFormPage({
      base,
      csrf: csrfToken(),
      action: editing ? `${base}/webhook_endpoints/${editing.id}/edit` : `${base}/webhook_endpoints`,
      editing,
      values,
      problems,
      eventTypes: EVENT_TYPES,
      cancelHref: editing ? `${base}/webhook_endpoints/${editing.id}` : `${base}/webhook_endpoints`,
    }),
    status,
  );
}

async function showEndpoints({ req, ctx, services, caller, render }: DashRequest<ListQuery>) {
  const page = await services.webhooks.endpoints.listEndpoints(caller, {
    limit: PAGE_SIZE,
    cursor: parseCursorParam(req.query.after),
  });
  const after = cursorParam(page.next);
  return render(
    'developers',
    tr('Webhook endpoints'),
    endpointListPage({
      base: ctx.base,
      canWrite: ctx.can('webhooks.write'),
      endpoints: page.data,
      nextHref: after ? withQuery(`${ctx.base}/webhook_endpoints`, { after }) : null,
      notice: req.query.deleted !== undefined ? tr('Endpoint deleted: its pending deliveries are cancelled.') : null,
    }),
  );
}

async function newEndpointForm(r: DashRequest) {
  return sendEndpointForm(r, { url: '', description: '', eventTypes: [] }, [], null);
}

async function createEndpoint(r: DashRequest) {
  const { req, ctx, services, caller, render } = r;
  const values = readEndpointForm(req.body);
  const problems = endpointFormProblems(values);
  if (problems.length > 0) {
    return sendEndpointForm(r, values, problems, null, 400);
  }
  let created: { endpoint: WebhookEndpoint; secret: string };
  try {
    created = await services.webhooks.endpoints.createEndpoint(caller, endpointInput(values));
  } catch (error) {
    return sendEndpointForm(r, values, refusal(error), null, 400);
  }
  const { endpoint } = created;
  await auditEndpoint(r, 'webhook_endpoint.create', endpoint.id, endpointDetail(endpoint));
  return render(
    'developers',
    tr('Endpoint created'),
    secretShownPage({
      heading: tr('Endpoint created'),
      intro: tr(
        'Deliveries to {url} are signed with this secret (Standard Webhooks). Use it in your receiver to verify them.',
        { url: endpoint.url },
      ),
      secret: created.secret,
      previousExpiresAt: null,
      backHref: `${ctx.base}/webhook_endpoints/${endpoint.id}`,
      backLabel: tr('Done: go to the endpoint'),
    }),
    201,
  );
}

/** The notice a redirect back to the endpoint page asks for. */
function endpointNotice(q: EndpointQuery['Querystring']): string | null {
  return q.saved !== undefined
    ? tr('Endpoint saved.')
    : q.tested !== undefined
      ? tr('Test event queued: it is delivered in a few seconds and listed below.')
      : q.enabled !== undefined
        ? tr('Endpoint enabled: it receives the events it subscribes to from now on.')
        : q.disabled !== undefined
          ? tr('Endpoint disabled: no event is sent to it until it is enabled again.')
          : null;
}

async function showEndpoint({ req, ctx, services, caller, render, csrfToken }: DashRequest<EndpointQuery>) {
  const endpoint = await services.webhooks.endpoints.getEndpoint(caller, req.params.id);
  const { deliveries, attempts } = await services.webhooks.endpoints.endpointDeliveries(
    caller,
    endpoint.id,
    RECENT_DELIVERIES,
  );
  return render(
    'developers',
    tr('Webhook endpoint'),
    endpointPage({
      base: ctx.base,
      csrf: csrfToken(),
      canWrite: ctx.can('webhooks.write'),
      endpoint,
      deliveries,
      attempts,
      notice: endpointNotice(req.query),
    }),
  );
}

async function editEndpointForm(r: DashRequest<IdParams>) {
  const e = await r.services.webhooks.endpoints.getEndpoint(r.caller, r.req.params.id);
  return sendEndpointForm(r, { url: e.url, description: e.description ?? '', eventTypes: e.eventTypes ?? [] }, [], e);
}

async function saveEndpoint(r: DashRequest<IdParams>) {
  const { req, ctx, services, caller, redirect } = r;
  const current = await services.webhooks.endpoints.getEndpoint(caller, req.params.id);
  const values = readEndpointForm(req.body);
  const problems = endpointFormProblems(values);
  if (problems.length > 0) {
    return sendEndpointForm(r, values, problems, current, 400);
  }
  let updated: WebhookEndpoint;
  try {
    updated = await services.webhooks.endpoints.updateEndpoint(caller, current.id, endpointInput(values));
  } catch (error) {
    return sendEndpointForm(r, values, refusal(error), current, 400);
  }
  await auditEndpoint(r, 'webhook_endpoint.update', updated.id, endpointDetail(updated));
  return redirect(`${ctx.base}/webhook_endpoints/${updated.id}?saved=1`);
}

async function enableEndpoint(r: DashRequest<IdParams>) {
  return setEnabled(r, true);
}

async function disableEndpoint(r: DashRequest<IdParams>) {
  return setEnabled(r, false);
}

/** Enables or disables the endpoint (a no-op when it already is), then back to its page. */
async function setEnabled(r: DashRequest<IdParams>, enabled: boolean) {
  const { req, ctx, services, caller, redirect } = r;
  const current = await services.webhooks.endpoints.getEndpoint(caller, req.params.id);
  if (current.enabled !== enabled) {
    await services.webhooks.endpoints.updateEndpoint(caller, current.id, { enabled });
    await auditEndpoint(r, 'webhook_endpoint.update', current.id, { enabled });
  }
  return redirect(`${ctx.base}/webhook_endpoints/${current.id}?${enabled ? 'enabled' : 'disabled'}=1`);
}

async function sendTestEvent(r: DashRequest<IdParams>) {
  const { req, ctx, services, caller, redirect } = r;
  const { event } = await services.webhooks.endpoints.sendTestEvent(caller, req.params.id);
  await auditEndpoint(r, 'webhook_endpoint.test', event.entityId, { event_id: event.id });
  return redirect(`${ctx.base}/webhook_endpoints/${event.entityId}?tested=1`);
}

async function confirmRotateSecret({ req, ctx, services, caller, render, csrfToken }: DashRequest<IdParams>) {
  const e = await services.webhooks.endpoints.getEndpoint(caller, req.params.id);
  return render(
    'developers',
    tr('Rotate secret'),
    confirmStep({
      csrf: csrfToken(),
      heading: tr('Rotate the signing secret?'),
      explanation: tr(
        'A new secret signs deliveries to {url} from now on; the current one keeps signing alongside it for a while, so you can update your receiver without losing a delivery.',
        { url: e.url },
      ),
      action: `${ctx.base}/webhook_endpoints/${e.id}/rotate`,
      button: tr('Rotate secret'),
      cancelHref: `${ctx.base}/webhook_endpoints/${e.id}`,
    }),
  );
}

async function rotateSecret(r: DashRequest<IdParams>) {
  const { req, ctx, services, caller, render } = r;
  const e = await services.webhooks.endpoints.getEndpoint(caller, req.params.id);
  const rotated = await services.webhooks.endpoints.rotateEndpointSecret(caller, e.id);
  await auditEndpoint(r, 'webhook_endpoint.rotate', e.id, {
    previous_secret_expires_at: new Date(rotated.previousExpiresAt).toISOString(),
  });
  return render(
    'developers',
    tr('New signing secret'),
    secretShownPage({
      heading: tr('New signing secret'),
      intro: tr('Deliveries to {url} are signed with this secret from now on.', { url: e.url }),
      secret: rotated.secret,
      previousExpiresAt: rotated.previousExpiresAt,
      backHref: `${ctx.base}/webhook_endpoints/${e.id}`,
      backLabel: tr('Done: back to the endpoint'),
    }),
  );
}

async function confirmDeleteEndpoint({ req, ctx, services, caller, render, csrfToken }: DashRequest<IdParams>) {
  const e = await services.webhooks.endpoints.getEndpoint(caller, req.params.id);
  return render(
    'developers',
    tr('Delete endpoint'),
    confirmStep({
      csrf: csrfToken(),
      heading: tr('Delete this endpoint?'),
      explanation: tr(
        'No event is sent to {url} any more and its pending deliveries are cancelled. This cannot be undone.',
        { url: e.url },
      ),
      action: `${ctx.base}/webhook_endpoints/${e.id}/delete`,
      button: tr('Delete endpoint'),
      cancelHref: `${ctx.base}/webhook_endpoints/${e.id}`,
    }),
  );
}

async function deleteEndpoint(r: DashRequest<IdParams>) {
  const { req, ctx, services, caller, redirect } = r;
  const deleted = await services.webhooks.endpoints.deleteEndpoint(caller, req.params.id);
  await auditEndpoint(r, 'webhook_endpoint.delete', deleted.id, { url: deleted.url });
  return redirect(`${ctx.base}/webhook_endpoints?deleted=1`);
}
