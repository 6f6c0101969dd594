/** Where every plan's public link lives: `/l/{payment_link_id}`. */
export const PLAN_LINK_PREFIX = '/l';

/** `${PUBLIC_URL}/l/{id}`: the address a merchant shares so that any payer can subscribe to the plan. */
export function planLinkUrl(publicUrl: string, paymentLinkId: string): string {
  return `${publicUrl}${PLAN_LINK_PREFIX}/${paymentLinkId}`;
}
