import type { Caller } from '../../domain/merchants/merchant.ts';
import type { DashContext } from './dash-tools.ts';

/**
 * The domain services' caller for a signed-in dashboard request: the chosen merchant, the
 * page's mode (live or test, from its address), and a key naming the user, so logs and
 * idempotency records tell a dashboard action from an API call.
 */
export function callerOf(ctx: Pick<DashContext, 'merchantId' | 'mode' | 'active'>): Caller {
  return { merchantId: ctx.merchantId, mode: ctx.mode, key: `dashboard:${ctx.active.user.id}` };
}
