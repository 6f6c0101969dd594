import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKey, Mode } from '../../domain/merchants/merchant.ts';
import { AppError } from '../../domain/shared/errors.ts';
import type { PageCursor } from '../../domain/shared/page.ts';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../domain/webhooks/webhook.service.ts';
import type { WebhookEndpoint } from '../../domain/webhooks/webhook.ts';
import { formField } from '../checkout/form-input.ts';
import { callerOf } from './caller.ts';
import type { DashContext, DashTools } from './dash-tools.ts';
import { t as tr } from './i18n.ts';
import type { EndpointFormValues, KeyRow } from './views/developers.views.ts';
import {
  developersIndexPage,
  endpointFormPage,
  endpointListPage,
  endpointPage,
  eventListPage,
  eventPage,
  keyCreatedPage,
  keyListPage,
  keyPrefix,
  keyRevokePage,
  secretShownPage,
} from './views/developers.views.ts';
import { confirmStep } from './views/layout.ts';

const PAGE_SIZE = 50;
/** The endpoint page's "recent deliveries". */
const RECENT_DELIVERIES = 20;
/** The event filter offers every type an event can have, the test event's included. */
const FILTER_TYPES: readonly string[] = [...EVENT_TYPES, TEST_EVENT_TYPE];

type Req = FastifyRequest;
type Reply = FastifyReply;
type IdParams = { Params: { id: string } };

// ---- small helpers ------------------------------------------------------------------------------

function query(req: Req): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

const queryText = (req: Req, name: string): string => {
  const value = query(req)[name];
  return typeof value === 'string' ? value : '';
};

/** A page cursor in a link: the last row's (created_at, id), as the API's next_cursor. */
function encodeAfter(cursor: PageCursor | null): string | null {
  return cursor ? Buffer.from(`${cursor.createdAt}.${cursor.id}`).toString('base64url') : null;
}

function parseAfter(value: unknown): PageCursor | null {
  if (typeof value !== 'string' || value === '') {
    return null;
  }
  const m = /^(\d{1,16})\.([A-Za-z0-9]{22})$/.exec(Buffer.from(value.slice(0, 200), 'base64url').toString('utf8'));
  if (!m?.[1] || !m[2]) {
    throw new AppError('WRONG_INPUT', ['after must be the link of a previous page']);
  }
  return { createdAt: Number(m[1]), id: m[2] };
}

function withQuery(path: string, params: Record<string, string | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v) {
      q.set(k, v);
    }
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * A key's reference in the dashboard's addresses: a digest of the key, so the key itself never
 * lands in URLs, history or access logs, and a reference only finds a key in the merchant's own
 * list of this mode (anything else is a 404).
 */
const keyRef = (key: string): string => createHash('sha256').update(key).digest('base64url').slice(0, 22);

/** Checkbox values (one field, or several of the same name). */
function formList(body: unknown, name: string): string[] {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((x): x is string => typeof x === 'string').slice(0, 50);
}

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

/** The payload indented for reading; the stored text as is if it is not JSON. */
function prettyJson(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

// ---- the routes -----------------------------------------------------------------------------------

/**
 * Developers: API keys (MerchantService), webhook endpoints and the preference webhooks' signing
 * secret, events with their deliveries (the webhook services, called as the API's routes call them).
 */
export function registerDevelopersRoutes(scope: FastifyInstance, t: DashTools, mode: Mode, base: string): void {
  const { deps } = t;

  const audit = (
    ctx: DashContext,
    action: string,
    objectType: string,
    objectId: string,
    detail: Record<string, unknown> = {},
  ) =>
    deps.dashboard.audit.record(ctx.actor, {
      merchantId: ctx.merchantId,
      action,
      objectType,
      objectId,
      detail: { mode: ctx.mode, ...detail },
    });

  scope.get(`${base}/developers`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const [keys, endpoints] = await Promise.all([
      deps.merchants.listKeys(ctx.merchantId, ctx.mode),
      deps.webhooks.endpoints.listEndpoints(callerOf(ctx), { limit: 100, cursor: null }),
    ]);
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      'Developers',
      developersIndexPage({
        base,
        activeKeys: keys.filter((k) => k.revokedAt === null).length,
        endpoints: endpoints.data.length,
        endpointsMore: endpoints.hasMore,
      }),
    );
  });

  // ---- API keys -----------------------------------------------------------------------------------

  const sendKeyList = async (
    req: Req,
    reply: Reply,
    ctx: DashContext,
    form: { name: string; problems: string[] },
    status = 200,
  ) => {
    const keys = await deps.merchants.listKeys(ctx.merchantId, ctx.mode);
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('API keys'),
      keyListPage({
        base,
        csrf: t.csrfToken(req, reply),
        canWrite: ctx.can('keys.write'),
        mode: ctx.mode,
        rows: keys.map((key): KeyRow => ({ key, ref: keyRef(key.key) })),
        notice: query(req).revoked !== undefined ? tr('Key revoked: the API refuses it from now on.') : null,
        problems: form.problems,
        name: form.name,
      }),
      status,
    );
  };

  /** One of the merchant's keys of this mode by its reference, or NOT_FOUND. */
  const keyByRef = async (ctx: DashContext, ref: string): Promise<ApiKey> => {
    const key = (await deps.merchants.listKeys(ctx.merchantId, ctx.mode)).find((k) => keyRef(k.key) === ref);
    if (!key) {
      throw new AppError('NOT_FOUND', ['api key not found']);
    }
    return key;
  };

  scope.get(`${base}/developers/keys`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    return ctx ? sendKeyList(req, reply, ctx, { name: '', problems: [] }) : reply;
  });

  scope.post(`${base}/developers/keys`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'keys.write');
    if (!ctx) {
      return reply;
    }
    const name = formField(req.body, 'name').trim().slice(0, 400);
    if ([...name].length > 100) {
      return sendKeyList(req, reply, ctx, { name, problems: [tr('Name must be at most 100 characters.')] }, 400);
    }
    const pair = await deps.merchants.createKeyPair(ctx.merchantId, ctx.mode, name === '' ? null : name);
    await audit(ctx, 'api_key.create', 'api_key', keyPrefix(pair.apiKey), { name: name || null });
    // The one answer that shows the secret: nothing keeps it, so a reload cannot show it again.
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Key pair created'),
      keyCreatedPage({ base, name: name || null, apiKey: pair.apiKey, apiSecret: pair.apiSecret }),
      201,
    );
  });

  scope.get<IdParams>(`${base}/developers/keys/:id/revoke`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'keys.write');
    if (!ctx) {
      return reply;
    }
    const key = await keyByRef(ctx, req.params.id);
    if (key.revokedAt !== null) {
      return t.seeOther(reply, `${base}/developers/keys`);
    }
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Revoke key'),
      keyRevokePage({ base, csrf: t.csrfToken(req, reply), key, ref: req.params.id }),
    );
  });

  scope.post<IdParams>(`${base}/developers/keys/:id/revoke`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'keys.write');
    if (!ctx) {
      return reply;
    }
    const key = await keyByRef(ctx, req.params.id);
    if (key.revokedAt === null) {
      await deps.merchants.revokeMerchantKey(ctx.merchantId, ctx.mode, key.key);
      await audit(ctx, 'api_key.revoke', 'api_key', keyPrefix(key.key), { name: key.name ?? null });
    }
    return t.seeOther(reply, `${base}/developers/keys?revoked=1`);
  });

  // ---- webhook endpoints -----------------------------------------------------------------------------

  scope.get(`${base}/webhook_endpoints`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const page = await deps.webhooks.endpoints.listEndpoints(callerOf(ctx), {
      limit: PAGE_SIZE,
      cursor: parseAfter(query(req).after),
    });
    const after = encodeAfter(page.next);
    const q = query(req);
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Webhook endpoints'),
      endpointListPage({
        base,
        canWrite: ctx.can('webhooks.write'),
        endpoints: page.data,
        nextHref: after ? withQuery(`${base}/webhook_endpoints`, { after }) : null,
        notice: q.deleted !== undefined ? tr('Endpoint deleted: its pending deliveries are cancelled.') : null,
      }),
    );
  });

  const sendEndpointForm = (
    req: Req,
    reply: Reply,
    ctx: DashContext,
    values: EndpointFormValues,
    problems: readonly string[],
    editing: WebhookEndpoint | null,
    status = 200,
  ) =>
    t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      editing ? tr('Edit endpoint') : tr('New webhook endpoint'),
      endpointFormPage({
        base,
        csrf: t.csrfToken(req, reply),
        action: editing ? `${base}/webhook_endpoints/${editing.id}/edit` : `${base}/webhook_endpoints`,
        editing,
        values,
        problems,
        eventTypes: EVENT_TYPES,
        cancelHref: editing ? `${base}/webhook_endpoints/${editing.id}` : `${base}/webhook_endpoints`,
      }),
      status,
    );

  scope.get(`${base}/webhook_endpoints/new`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    return sendEndpointForm(req, reply, ctx, { url: '', description: '', eventTypes: [] }, [], null);
  });

  scope.post(`${base}/webhook_endpoints`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const values = readEndpointForm(req.body);
    const problems = endpointFormProblems(values);
    if (problems.length > 0) {
      return sendEndpointForm(req, reply, ctx, values, problems, null, 400);
    }
    let created: { endpoint: WebhookEndpoint; secret: string };
    try {
      created = await deps.webhooks.endpoints.createEndpoint(callerOf(ctx), {
        url: values.url,
        eventTypes: values.eventTypes.length > 0 ? [...values.eventTypes] : null,
        description: values.description === '' ? null : values.description,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'WRONG_INPUT') {
        return sendEndpointForm(req, reply, ctx, values, error.messages, null, 400);
      }
      throw error;
    }
    await audit(ctx, 'webhook_endpoint.create', 'webhook_endpoint', created.endpoint.id, {
      url: created.endpoint.url,
      event_types: created.endpoint.eventTypes,
    });
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Endpoint created'),
      secretShownPage({
        heading: tr('Endpoint created'),
        intro: tr(
          'Deliveries to {url} are signed with this secret (Standard Webhooks). Use it in your receiver to verify them.',
          { url: created.endpoint.url },
        ),
        secret: created.secret,
        previousExpiresAt: null,
        backHref: `${base}/webhook_endpoints/${created.endpoint.id}`,
        backLabel: tr('Done: go to the endpoint'),
      }),
      201,
    );
  });

  scope.get<IdParams>(`${base}/webhook_endpoints/:id`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const endpoint = await deps.webhooks.endpoints.getEndpoint(caller, req.params.id);
    const { deliveries, attempts } = await deps.webhooks.endpoints.endpointDeliveries(
      caller,
      endpoint.id,
      RECENT_DELIVERIES,
    );
    const q = query(req);
    const notice =
      q.saved !== undefined
        ? tr('Endpoint saved.')
        : q.tested !== undefined
          ? tr('Test event queued: it is delivered in a few seconds and listed below.')
          : q.enabled !== undefined
            ? tr('Endpoint enabled: it receives the events it subscribes to from now on.')
            : q.disabled !== undefined
              ? tr('Endpoint disabled: no event is sent to it until it is enabled again.')
              : null;
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Webhook endpoint'),
      endpointPage({
        base,
        csrf: t.csrfToken(req, reply),
        canWrite: ctx.can('webhooks.write'),
        endpoint,
        deliveries,
        attempts,
        notice,
      }),
    );
  });

  scope.get<IdParams>(`${base}/webhook_endpoints/:id/edit`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const e = await deps.webhooks.endpoints.getEndpoint(callerOf(ctx), req.params.id);
    return sendEndpointForm(
      req,
      reply,
      ctx,
      { url: e.url, description: e.description ?? '', eventTypes: e.eventTypes ?? [] },
      [],
      e,
    );
  });

  scope.post<IdParams>(`${base}/webhook_endpoints/:id/edit`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const current = await deps.webhooks.endpoints.getEndpoint(caller, req.params.id);
    const values = readEndpointForm(req.body);
    const problems = endpointFormProblems(values);
    if (problems.length > 0) {
      return sendEndpointForm(req, reply, ctx, values, problems, current, 400);
    }
    let updated: WebhookEndpoint;
    try {
      updated = await deps.webhooks.endpoints.updateEndpoint(caller, current.id, {
        url: values.url,
        eventTypes: values.eventTypes.length > 0 ? [...values.eventTypes] : null,
        description: values.description === '' ? null : values.description,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'WRONG_INPUT') {
        return sendEndpointForm(req, reply, ctx, values, error.messages, current, 400);
      }
      throw error;
    }
    await audit(ctx, 'webhook_endpoint.update', 'webhook_endpoint', updated.id, {
      url: updated.url,
      event_types: updated.eventTypes,
    });
    return t.seeOther(reply, `${base}/webhook_endpoints/${updated.id}?saved=1`);
  });

  for (const [path, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    scope.post<IdParams>(`${base}/webhook_endpoints/:id/${path}`, async (req, reply) => {
      const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
      if (!ctx) {
        return reply;
      }
      const caller = callerOf(ctx);
      const current = await deps.webhooks.endpoints.getEndpoint(caller, req.params.id);
      if (current.enabled !== enabled) {
        await deps.webhooks.endpoints.updateEndpoint(caller, current.id, { enabled });
        await audit(ctx, 'webhook_endpoint.update', 'webhook_endpoint', current.id, { enabled });
      }
      return t.seeOther(reply, `${base}/webhook_endpoints/${current.id}?${path}d=1`);
    });
  }

  scope.post<IdParams>(`${base}/webhook_endpoints/:id/test`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const { event } = await deps.webhooks.endpoints.sendTestEvent(callerOf(ctx), req.params.id);
    await audit(ctx, 'webhook_endpoint.test', 'webhook_endpoint', event.entityId, { event_id: event.id });
    return t.seeOther(reply, `${base}/webhook_endpoints/${event.entityId}?tested=1`);
  });

  scope.get<IdParams>(`${base}/webhook_endpoints/:id/rotate`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const e = await deps.webhooks.endpoints.getEndpoint(callerOf(ctx), req.params.id);
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Rotate secret'),
      confirmStep({
        csrf: t.csrfToken(req, reply),
        heading: tr('Rotate the signing secret?'),
        explanation: tr(
          'A new secret signs deliveries to {url} from now on; the current one keeps signing alongside it for a while, so you can update your receiver without losing a delivery.',
          { url: e.url },
        ),
        action: `${base}/webhook_endpoints/${e.id}/rotate`,
        button: tr('Rotate secret'),
        cancelHref: `${base}/webhook_endpoints/${e.id}`,
      }),
    );
  });

  scope.post<IdParams>(`${base}/webhook_endpoints/:id/rotate`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const e = await deps.webhooks.endpoints.getEndpoint(caller, req.params.id);
    const rotated = await deps.webhooks.endpoints.rotateEndpointSecret(caller, e.id);
    await audit(ctx, 'webhook_endpoint.rotate', 'webhook_endpoint', e.id, {
      previous_secret_expires_at: new Date(rotated.previousExpiresAt).toISOString(),
    });
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('New signing secret'),
      secretShownPage({
        heading: tr('New signing secret'),
        intro: tr('Deliveries to {url} are signed with this secret from now on.', { url: e.url }),
        secret: rotated.secret,
        previousExpiresAt: rotated.previousExpiresAt,
        backHref: `${base}/webhook_endpoints/${e.id}`,
        backLabel: tr('Done: back to the endpoint'),
      }),
    );
  });

  scope.get<IdParams>(`${base}/webhook_endpoints/:id/delete`, async (req, reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const e = await deps.webhooks.endpoints.getEndpoint(callerOf(ctx), req.params.id);
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Delete endpoint'),
      confirmStep({
        csrf: t.csrfToken(req, reply),
        heading: tr('Delete this endpoint?'),
        explanation: tr(
          'No event is sent to {url} any more and its pending deliveries are cancelled. This cannot be undone.',
          { url: e.url },
        ),
        action: `${base}/webhook_endpoints/${e.id}/delete`,
        button: tr('Delete endpoint'),
        cancelHref: `${base}/webhook_endpoints/${e.id}`,
      }),
    );
  });

  scope.post<IdParams>(`${base}/webhook_endpoints/:id/delete`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const deleted = await deps.webhooks.endpoints.deleteEndpoint(callerOf(ctx), req.params.id);
    await audit(ctx, 'webhook_endpoint.delete', 'webhook_endpoint', deleted.id, { url: deleted.url });
    return t.seeOther(reply, `${base}/webhook_endpoints?deleted=1`);
  });

  // ---- the preference webhooks' signing secret --------------------------------------------------------

  const merchantSecretPage = (kind: 'reveal' | 'rotate') => async (req: Req, reply: Reply) => {
    const ctx = await t.requirePermission(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      kind === 'reveal' ? 'Signing secret' : 'Rotate signing secret',
      confirmStep({
        csrf: t.csrfToken(req, reply),
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
        action: `${base}/webhook_settings/${kind === 'reveal' ? 'secret' : 'rotate'}`,
        button: kind === 'reveal' ? 'Reveal secret' : 'Rotate secret',
        cancelHref: `${base}/webhook_endpoints`,
      }),
    );
  };
  scope.get(`${base}/webhook_settings/secret`, merchantSecretPage('reveal'));
  scope.get(`${base}/webhook_settings/rotate`, merchantSecretPage('rotate'));

  scope.post(`${base}/webhook_settings/secret`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const secret = await deps.webhooks.secrets.merchantSigningSecret(callerOf(ctx));
    await audit(ctx, 'webhook_settings.reveal', 'webhook_settings', ctx.merchantId);
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Signing secret'),
      secretShownPage({
        heading: tr('Signing secret for preference webhooks'),
        intro: tr('Deliveries to status_changes_webhook URLs ({mode} mode) are signed with this secret.', {
          mode: ctx.mode,
        }),
        secret,
        previousExpiresAt: null,
        backHref: `${base}/webhook_endpoints`,
        backLabel: tr('Done: back to webhook endpoints'),
      }),
    );
  });

  scope.post(`${base}/webhook_settings/rotate`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const rotated = await deps.webhooks.secrets.rotateMerchantSecret(callerOf(ctx));
    await audit(ctx, 'webhook_settings.rotate', 'webhook_settings', ctx.merchantId, {
      previous_secret_expires_at: new Date(rotated.previousExpiresAt).toISOString(),
    });
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('New signing secret'),
      secretShownPage({
        heading: tr('New signing secret for preference webhooks'),
        intro: tr('Deliveries to status_changes_webhook URLs ({mode} mode) are signed with this secret from now on.', {
          mode: ctx.mode,
        }),
        secret: rotated.secret,
        previousExpiresAt: rotated.previousExpiresAt,
        backHref: `${base}/webhook_endpoints`,
        backLabel: tr('Done: back to webhook endpoints'),
      }),
    );
  });

  // ---- events ----------------------------------------------------------------------------------------

  scope.get(`${base}/events`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const type = queryText(req, 'type');
    if (type !== '' && !FILTER_TYPES.includes(type)) {
      throw new AppError('WRONG_INPUT', [`type must be one of ${FILTER_TYPES.join(', ')}`]);
    }
    const page = await deps.webhooks.events.listEvents(
      callerOf(ctx),
      { limit: PAGE_SIZE, cursor: parseAfter(query(req).after) },
      type ? { eventType: type } : {},
    );
    const after = encodeAfter(page.next);
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Events'),
      eventListPage({
        base,
        events: page.data,
        eventTypes: FILTER_TYPES,
        type,
        nextHref: after ? withQuery(`${base}/events`, { type, after }) : null,
      }),
    );
  });

  scope.get<IdParams>(`${base}/events/:id`, async (req, reply) => {
    const ctx = await t.requireSession(req, reply, mode, base);
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const event = await deps.webhooks.events.getEvent(caller, req.params.id);
    const { deliveries, attempts } = await deps.webhooks.events.deliveries(caller, event.id);
    return t.sendShell(
      req,
      reply,
      ctx,
      'developers',
      tr('Event {type}', { type: event.eventType }),
      eventPage({
        base,
        csrf: t.csrfToken(req, reply),
        canRedeliver: ctx.can('webhooks.write'),
        event,
        payload: prettyJson(event.payload),
        deliveries,
        attempts,
        notice:
          query(req).redelivered !== undefined
            ? tr('The event is queued for one more delivery to each of its endpoints.')
            : null,
      }),
    );
  });

  scope.post<IdParams>(`${base}/events/:id/redeliver`, async (req, reply) => {
    const ctx = await t.authorize(req, reply, mode, base, 'webhooks.write');
    if (!ctx) {
      return reply;
    }
    const caller = callerOf(ctx);
    const event = await deps.webhooks.events.getEvent(caller, req.params.id);
    const deliveries = await deps.webhooks.events.redeliver(caller, event.id);
    await audit(ctx, 'event.redeliver', 'event', event.id, {
      event_type: event.eventType,
      deliveries: deliveries.length,
    });
    return t.seeOther(reply, `${base}/events/${event.id}?redelivered=1`);
  });
}
