/**
 * What each dashboard role may do, decided here once and asked by every page and every POST.
 * owner: everything, the team included; admin: everything but the team; developer: keys,
 * webhooks and events, and reads the rest; viewer: reads only.
 */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const ACTIONS = [
  /** See payments, subscriptions, plans, events, settings. Every role. */
  'read',
  /** Create payments, refund, confirm transfers, cancel subscriptions. */
  'payments.write',
  /** Create, edit and archive plans. */
  'plans.write',
  /** Create and revoke API keys. */
  'keys.write',
  /** Webhook endpoints, test events, redelivery, the preference-webhook secret. */
  'webhooks.write',
  /** Business profile and payment settings. */
  'settings.write',
  /** Invite, change roles, remove members; read the audit log. */
  'team.manage',
] as const;
export type Action = (typeof ACTIONS)[number];

const GRANTS: Record<Role, ReadonlySet<Action>> = {
  owner: new Set(ACTIONS),
  admin: new Set(ACTIONS.filter((a) => a !== 'team.manage')),
  developer: new Set<Action>(['read', 'keys.write', 'webhooks.write']),
  viewer: new Set<Action>(['read']),
};

export function can(role: Role, action: Action): boolean {
  return GRANTS[role].has(action);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
