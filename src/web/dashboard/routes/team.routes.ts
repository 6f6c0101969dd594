import { formField } from '../../kit/form-input.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { teamPage } from '../views/account.views.ts';

/**
 * The merchant's team (owners only): its members and their roles, the pending invitations, and
 * inviting someone. The team service writes the audit entries of these changes.
 */
export function teamRoutes(r: DashRouter): void {
  r.page('/settings/team', showTeam, 'team.manage');
  r.action('/settings/team/invite', 'team.manage', invite);
  r.action('/settings/team/:userId/role', 'team.manage', changeRole);
  r.action('/settings/team/:userId/remove', 'team.manage', removeMember);
}

type MemberRoute = { Params: { userId: string } };

async function showTeam({ req, ctx, services, render, csrfToken }: DashRequest<{ Querystring: { invited?: string } }>) {
  const [members, invitations] = await Promise.all([
    services.dashboard.team.members(ctx.merchantId),
    services.dashboard.team.pendingInvitations(ctx.merchantId),
  ]);
  return render(
    'settings',
    tr('Team'),
    teamPage({ base: ctx.base, csrf: csrfToken(), members, invitations, invited: Boolean(req.query.invited) }),
  );
}

async function invite({ req, ctx, services, redirect }: DashRequest) {
  await services.dashboard.team.invite(
    ctx.merchantId,
    formField(req.body, 'email'),
    formField(req.body, 'role'),
    ctx.actor,
  );
  return redirect(`${ctx.base}/settings/team?invited=1`);
}

async function changeRole({ req, ctx, services, redirect }: DashRequest<MemberRoute>) {
  await services.dashboard.team.changeRole(ctx.merchantId, req.params.userId, formField(req.body, 'role'), ctx.actor);
  return redirect(`${ctx.base}/settings/team`);
}

async function removeMember({ req, ctx, services, redirect }: DashRequest<MemberRoute>) {
  await services.dashboard.team.remove(ctx.merchantId, req.params.userId, ctx.actor);
  return redirect(`${ctx.base}/settings/team`);
}
