import type { Mode } from '../merchants/merchant.ts';

/** The kinds of object the dashboard addresses by a public id in its paths. */
export const OWNED_OBJECT_TYPES = [
  'payment_order',
  'checkout_preference',
  'payment_link',
  'recurrent_payment',
  'webhook_endpoint',
  'event',
] as const;
export type OwnedObjectType = (typeof OWNED_OBJECT_TYPES)[number];

/**
 * Who an object belongs to, whatever the merchant or mode asking: for telling a refused
 * attempt on someone else's object from a typo. Never used to answer a request.
 */
export interface ObjectOwnerRepository {
  /** The merchant and mode of the object with this id (one lookup by primary key), or null. */
  ownerOf(type: OwnedObjectType, id: string): Promise<{ merchantId: string; mode: Mode } | null>;
}
