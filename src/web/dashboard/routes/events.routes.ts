import { AppError } from '../../../domain/shared/errors.ts';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../../domain/webhooks/webhook.service.ts';
import { cursorParam, parseCursorParam, queryText, withQuery } from '../../kit/query.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { eventListPage, eventPage } from '../views/events.views.ts';

/** Events of this mode with their payload and deliveries (the webhook services), and redelivery. */
export function eventsRoutes(r: DashRouter): void {
  r.page('/events', showEvents);
  r.page('/events/:id', showEvent);
  r.action('/events/:id/redeliver', 'webhooks.write', redeliverEvent);
}

const PAGE_SIZE = 50;
/** The event filter offers every type an event can have, the test event's included. */
const FILTER_TYPES: readonly string[] = [...EVENT_TYPES, TEST_EVENT_TYPE];

type ListQuery = { Querystring: { type?: string; after?: string } };
type IdParams = { Params: { id: string } };
type EventQuery = IdParams & { Querystring: { redelivered?: string } };

/** The payload indented for reading; the stored text as is if it is not JSON. */
function prettyJson(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

async function showEvents({ req, ctx, services, caller, render }: DashRequest<ListQuery>) {
  const type = queryText(req, 'type');
  if (type !== '' && !FILTER_TYPES.includes(type)) {
    throw new AppError('WRONG_INPUT', [`type must be one of ${FILTER_TYPES.join(', ')}`]);
  }
  const page = await services.webhooks.events.listEvents(
    caller,
    { limit: PAGE_SIZE, cursor: parseCursorParam(req.query.after) },
    type ? { eventType: type } : {},
  );
  const after = cursorParam(page.next);
  return render(
    'developers',
    tr('Events'),
    eventListPage({
      base: ctx.base,
      events: page.data,
      eventTypes: FILTER_TYPES,
      type,
      nextHref: after ? withQuery(`${ctx.base}/events`, { type, after }) : null,
    }),
  );
}

async function showEvent({ req, ctx, services, caller, render, csrfToken }: DashRequest<EventQuery>) {
  const event = await services.webhooks.events.getEvent(caller, req.params.id);
  const { deliveries, attempts } = await services.webhooks.events.deliveries(caller, event.id);
  return render(
    'developers',
    tr('Event {type}', { type: event.eventType }),
    eventPage({
      base: ctx.base,
      csrf: csrfToken(),
      canRedeliver: ctx.can('webhooks.write'),
      event,
      payload: prettyJson(event.payload),
      deliveries,
      attempts,
      notice:
        req.query.redelivered !== undefined
          ? tr('The event is queued for one more delivery to each of its endpoints.')
          : null,
    }),
  );
}

async function redeliverEvent({ req, ctx, services, caller, redirect, audit }: DashRequest<IdParams>) {
  const event = await services.webhooks.events.getEvent(caller, req.params.id);
  const deliveries = await services.webhooks.events.redeliver(caller, event.id);
  await audit({
    action: 'event.redeliver',
    objectType: 'event',
    objectId: event.id,
    detail: { mode: ctx.mode, event_type: event.eventType, deliveries: deliveries.length },
  });
  return redirect(`${ctx.base}/events/${event.id}?redelivered=1`);
}
