import { Type } from 'typebox';
import type { DomainEvent } from '../../domain/events/event.ts';
import { PAYMENT_ORDER_DISPUTED } from '../../domain/events/event.ts';
import { PAYMENT_ORDER_STATUSES } from '../../domain/payment-orders/payment-order.status.ts';
import { toWireTime } from '../../domain/shared/clock.ts';
import { RECURRENT_PAYMENT_STATUSES } from '../../domain/subscriptions/recurrent-payment.status.ts';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../domain/webhooks/webhook.service.ts';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../domain/webhooks/webhook.ts';
import { Nullable, StringEnum } from './common.ts';

// The webhook bodies, as domain/events/event.ts and WebhookEndpointService.sendTestEvent write
// them: one schema per kind of object, each event type being `<ENTITY_TYPE>.<status after the
// change>`. They are the `CobroEvent` of the OpenAPI document (and its `webhooks` section), from
// which typed clients are generated; a test checks real payloads against them.

const eventId = Type.String({ description: 'Unique per event, the same on every retry; equals the webhook-id header' });
const sequence = Type.Integer({ description: 'Increases with every change of the same object: drop lower ones' });
const createdAt = Type.String({ description: 'When the change happened, RFC 3339 UTC (yyyy-MM-ddTHH:mm:ssZ)' });

/** What names the order in both kinds of payment order event: a status change and a dispute. */
const orderMembers = {
  entity_type: StringEnum(['PAYMENT_ORDER'] as const),
  entity_id: Type.String({ description: "The payment order's id" }),
  payment_order_id: Type.String({ description: 'Same as entity_id' }),
  checkout_preference_id: Nullable(Type.String()),
  recurrent_payment_id: Nullable(Type.String({ description: 'Set when the order is a subscription payment' })),
  external_id: Nullable(Type.String({ description: "The merchant's reference from the preference, verbatim" })),
};

export const PaymentOrderEventBody = Type.Object(
  {
    id: eventId,
    event_type: StringEnum(PAYMENT_ORDER_STATUSES.map((status) => `PAYMENT_ORDER.${status}`)),
    ...orderMembers,
    status: StringEnum(PAYMENT_ORDER_STATUSES, { description: "The order's status after this change" }),
    sequence,
    created_at: createdAt,
  },
  { $id: 'PaymentOrderEvent', description: 'A status change of a payment order (PAYMENT_ORDER.<status>)' },
);

export const PaymentOrderDisputedEventBody = Type.Object(
  {
    id: eventId,
    event_type: StringEnum([PAYMENT_ORDER_DISPUTED] as const),
    ...orderMembers,
    status: StringEnum(PAYMENT_ORDER_STATUSES, {
      description: "The order's status, unchanged by the dispute (CLOSED, or REFUNDED when it was refunded before)",
    }),
    sequence,
    created_at: Type.String({ description: 'When Cobro recorded the dispute, RFC 3339 UTC (yyyy-MM-ddTHH:mm:ssZ)' }),
    dispute: Type.Object(
      {
        id: Type.String({ description: "The dispute's id at the processor (Stripe: dp_…)" }),
        provider: StringEnum(['stripe'] as const),
        reason: Type.String({ description: "The processor's reason (Stripe: fraudulent, product_not_received, …)" }),
        status: Type.String({ description: "The processor's status when it was opened (Stripe: needs_response, …)" }),
        amount: Nullable(Type.Number({ description: 'The disputed amount in major units of `currency`' })),
        currency: Nullable(Type.String()),
        evidence_due_by: Nullable(
          Type.String({ description: "When the merchant's evidence is due at the processor, RFC 3339 UTC" }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    $id: 'PaymentOrderDisputedEvent',
    description:
      "The payer disputed a paid card payment with their bank (a chargeback): the processor holds the money until the dispute is decided, and the merchant answers it in the processor's dashboard. The order's status does not change",
  },
);

export const RecurrentPaymentEventBody = Type.Object(
  {
    id: eventId,
    event_type: StringEnum(RECURRENT_PAYMENT_STATUSES.map((status) => `RECURRENT_PAYMENT.${status}`)),
    entity_type: StringEnum(['RECURRENT_PAYMENT'] as const),
    entity_id: Type.String({ description: "The recurrent payment's id" }),
    recurrent_payment_id: Type.String({ description: 'Same as entity_id' }),
    checkout_preference_id: Type.String({ description: 'The SUBSCRIPTION checkout that started it' }),
    payment_link_id: Type.String({ description: 'The plan' }),
    external_id: Nullable(Type.String({ description: "The merchant's reference, verbatim" })),
    status: StringEnum(RECURRENT_PAYMENT_STATUSES, { description: "The subscription's status after this change" }),
    sequence,
    created_at: createdAt,
  },
  { $id: 'RecurrentPaymentEvent', description: 'A status change of a subscription (RECURRENT_PAYMENT.<status>)' },
);

export const WebhookEndpointTestEventBody = Type.Object(
  {
    id: eventId,
    event_type: StringEnum([TEST_EVENT_TYPE] as const),
    entity_type: StringEnum(['WEBHOOK_ENDPOINT'] as const),
    entity_id: Type.String({ description: "The endpoint's id" }),
    webhook_endpoint_id: Type.String({ description: 'Same as entity_id' }),
    test: Type.Boolean({ description: 'Always true' }),
    created_at: createdAt,
  },
  { $id: 'WebhookEndpointTestEvent', description: 'Sent to one endpoint from its dashboard page ("Send test event")' },
);

export const CobroEventBody = Type.Union(
  [PaymentOrderEventBody, PaymentOrderDisputedEventBody, RecurrentPaymentEventBody, WebhookEndpointTestEventBody],
  {
    $id: 'CobroEvent',
    description: 'The body of a webhook delivery, exactly as sent; entity_type and event_type tell which',
  },
);

/** The event types an endpoint can subscribe to (the test event is sent whatever it lists). */
const SubscribableEventType = StringEnum(EVENT_TYPES);

export const WebhookEndpointResponse = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    event_types: Nullable(Type.Array(SubscribableEventType, { description: 'null: every event type' })),
    enabled: Type.Boolean(),
    disabled_reason: Nullable(Type.String()),
    description: Nullable(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'WebhookEndpoint' },
);

export function toWebhookEndpointResponse(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    event_types: e.eventTypes,
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    description: e.description,
    created_at: toWireTime(e.createdAt),
    updated_at: toWireTime(e.updatedAt),
  };
}

export const EventResponse = Type.Object(
  {
    id: Type.String(),
    event_type: StringEnum([...EVENT_TYPES, TEST_EVENT_TYPE]),
    entity_type: StringEnum(['PAYMENT_ORDER', 'RECURRENT_PAYMENT', 'WEBHOOK_ENDPOINT'] as const),
    entity_id: Type.String(),
    sequence: Type.Integer(),
    created_at: Type.String(),
    data: CobroEventBody,
  },
  { $id: 'Event' },
);

export function toEventResponse(e: DomainEvent) {
  return {
    id: e.id,
    event_type: e.eventType,
    entity_type: e.entityType,
    entity_id: e.entityId,
    sequence: e.sequence,
    created_at: toWireTime(e.createdAt),
    data: JSON.parse(e.payload) as Record<string, unknown>,
  };
}

export const DeliveryResponse = Type.Object(
  {
    id: Type.String(),
    endpoint_id: Nullable(Type.String({ description: "null for the preference's status_changes_webhook" })),
    url: Type.String(),
    status: StringEnum(['PENDING', 'SUCCEEDED', 'FAILED'] as const),
    attempts: Type.Integer(),
    next_attempt_at: Nullable(Type.String()),
    last_status_code: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    attempt_log: Type.Array(
      Type.Object({
        attempt: Type.Integer(),
        started_at: Type.String(),
        duration_ms: Type.Integer(),
        status_code: Nullable(Type.Integer()),
        error: Nullable(Type.String()),
      }),
    ),
  },
  { $id: 'EventDelivery' },
);

/** The deliveries of one event (GET …/deliveries, POST …/redeliver). */
export const DeliveryList = Type.Object({ data: Type.Array(DeliveryResponse) }, { $id: 'EventDeliveryList' });

export function toDeliveryResponse(d: WebhookDelivery, attempts: WebhookAttempt[]) {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'PENDING' ? toWireTime(d.nextAttemptAt) : null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    attempt_log: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({
        attempt: a.attempt,
        started_at: toWireTime(a.startedAt),
        duration_ms: a.durationMs,
        status_code: a.statusCode,
        error: a.error,
      })),
  };
}
