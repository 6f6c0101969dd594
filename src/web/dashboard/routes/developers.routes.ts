import type { DashRequest, DashRouter } from '../router.ts';
import { developersIndexPage } from '../views/developers.views.ts';

/** Developers: the way to the API keys, the webhook endpoints and the events of this mode. */
export function developersRoutes(r: DashRouter): void {
  r.page('/developers', showDevelopers);
}

async function showDevelopers({ ctx, services, caller, render }: DashRequest) {
  const [keys, endpoints] = await Promise.all([
    services.merchants.listKeys(ctx.merchantId, ctx.mode),
    services.webhooks.endpoints.listEndpoints(caller, { limit: 100, cursor: null }),
  ]);
  return render(
    'developers',
    'Developers',
    developersIndexPage({
      base: ctx.base,
      activeKeys: keys.filter((k) => k.revokedAt === null).length,
      endpoints: endpoints.data.length,
      endpointsMore: endpoints.hasMore,
    }),
  );
}
