import type { Mode } from '../merchants/merchant.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import { toWireTime } from '../shared/clock.ts';
import { newId } from '../shared/ids.ts';
import type { RecurrentPayment } from '../subscriptions/recurrent-payment.ts';

/** `WEBHOOK_ENDPOINT` only for test events (WebhookEndpointService.sendTestEvent). */
export type EntityType = 'PAYMENT_ORDER' | 'RECURRENT_PAYMENT' | 'WEBHOOK_ENDPOINT';

/** A state change as written to the outbox, in the same transaction as the change itself. */
export type DomainEvent = {
  id: string;
  merchantId: string;
  mode: Mode;
  eventType: string;
  entityType: EntityType;
  entityId: string;
  /** The checkout preference the object belongs to (its status_changes_webhook receives the event). */
  checkoutPreferenceId: string | null;
  sequence: number;
  createdAt: number;
  /** The webhook body, exactly as it will be sent. */
  payload: string;
};

/** `PAYMENT_ORDER.<STATUS>` with the documented and the observed members (COMPATIBILITY.md, Webhooks). */
export function paymentOrderEvent(order: PaymentOrder, at: number): DomainEvent {
  return orderEvent(order, `PAYMENT_ORDER.${order.status}`, {}, at);
}

/** A dispute as the merchant's webhook receives it: amounts in major units, as everywhere on the wire. */
export type DisputePayload = {
  id: string;
  provider: string;
  reason: string;
  status: string;
  amount: number | null;
  currency: string | null;
  evidence_due_by: string | null;
};

/**
 * `PAYMENT_ORDER.DISPUTED`: the payer disputed the payment with their bank (a chargeback) and the
 * processor holds the money meanwhile. Not a status: the order keeps its own (`status` says which),
 * and the event's `sequence` is the order's next, so it is never dropped as stale.
 */
export function paymentOrderDisputedEvent(order: PaymentOrder, dispute: DisputePayload, at: number): DomainEvent {
  return orderEvent(order, PAYMENT_ORDER_DISPUTED, { dispute }, at);
}

export const PAYMENT_ORDER_DISPUTED = 'PAYMENT_ORDER.DISPUTED';

function orderEvent(order: PaymentOrder, eventType: string, extra: Record<string, unknown>, at: number): DomainEvent {
  const id = newId();
  const body = {
    id,
    event_type: eventType,
    entity_type: 'PAYMENT_ORDER',
    entity_id: order.id,
    payment_order_id: order.id,
    checkout_preference_id: order.checkoutPreferenceId,
    recurrent_payment_id: order.recurrentPaymentId,
    external_id: order.externalId,
    status: order.status,
    sequence: order.sequence,
    created_at: toWireTime(at),
    ...extra,
  };
  return {
    id,
    merchantId: order.merchantId,
    mode: order.mode,
    eventType,
    entityType: 'PAYMENT_ORDER',
    entityId: order.id,
    checkoutPreferenceId: order.checkoutPreferenceId,
    sequence: order.sequence,
    createdAt: at,
    payload: JSON.stringify(body),
  };
}

/** `RECURRENT_PAYMENT.<STATUS>`: same members, with `recurrent_payment_id`. */
export function recurrentPaymentEvent(r: RecurrentPayment, at: number): DomainEvent {
  const id = newId();
  const eventType = `RECURRENT_PAYMENT.${r.status}`;
  const body = {
    id,
    event_type: eventType,
    entity_type: 'RECURRENT_PAYMENT',
    entity_id: r.id,
    recurrent_payment_id: r.id,
    checkout_preference_id: r.checkoutPreferenceId,
    payment_link_id: r.paymentLinkId,
    external_id: r.externalId,
    status: r.status,
    sequence: r.sequence,
    created_at: toWireTime(at),
  };
  return {
    id,
    merchantId: r.merchantId,
    mode: r.mode,
    eventType,
    entityType: 'RECURRENT_PAYMENT',
    entityId: r.id,
    checkoutPreferenceId: r.checkoutPreferenceId,
    sequence: r.sequence,
    createdAt: at,
    payload: JSON.stringify(body),
  };
}
