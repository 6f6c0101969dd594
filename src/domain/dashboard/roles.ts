import type { Mode } from '../merchants/merchant.ts';

/**
 * What each dashboard role may do, decided here once and asked by every page and every POST.
 * owner: everything, the team included; admin: everything but the team; developer: keys,
 * webhooks and events, and reads the rest; viewer: reads only. In live mode, API keys need the
 * power to move money too: a live key can refund and charge through the API, so a role that may
 * not refund in the dashboard may not make (or revoke) one. A developer keeps test keys.
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
  /** Create and revoke API keys (live ones also need payments.write). */
  'keys.write',
  /** Webhook endpoints, test events, redelivery, the preference-webhook secret. */
  'webhooks.write',
  /** Business profile, payment settings and payment connections (the merchant's processor accounts). */
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

/** What an action needs besides itself in live mode: a live API key holds the API's whole power. */
const LIVE_ALSO_NEEDS: Partial<Record<Action, Action>> = { 'keys.write': 'payments.write' };

export function can(role: Role, action: Action, mode: Mode): boolean {
  const also = mode === 'live' ? LIVE_ALSO_NEEDS[action] : undefined;
  return GRANTS[role].has(action) && (also === undefined || GRANTS[role].has(also));
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
