import { AppError } from '../../../domain/shared/errors.ts';
import { formField } from '../../kit/form-input.ts';
import { LOCKED_OUT, lockedOut } from '../lockout.ts';
import type { DashRouter, PublicRequest } from '../router.ts';
import { BEARER_TOKEN } from '../router.ts';
import { invitationForm, messagePage } from '../views/auth.views.ts';

/**
 * An invitation's link: the invited person chooses a password (or gives the one of the account
 * they already have) and joins the merchant's team. Accepting is not signing in.
 */
export function invitationsRoutes(r: DashRouter): void {
  // The token opens the invitation: it never reaches a log line.
  r.publicPage('/dashboard/invitations/:token', showInvitation, BEARER_TOKEN);
  r.publicAction('/dashboard/invitations/:token', acceptInvitation, BEARER_TOKEN);
}

type InvitationRoute = { Params: { token: string } };

async function showInvitation({ req, services, m, render, csrfToken }: PublicRequest<InvitationRoute>) {
  const inv = await services.dashboard.team.openInvitation(req.params.token);
  if (!inv) {
    return invitationGone({ m, render });
  }
  return render(m.t('Join the dashboard'), invitationForm(m, csrfToken(), req.url, inv, []));
}

async function acceptInvitation({
  req,
  reply,
  services,
  m,
  render,
  redirect,
  csrfToken,
}: PublicRequest<InvitationRoute>) {
  const team = services.dashboard.team;
  const inv = await team.openInvitation(req.params.token);
  if (!inv) {
    return invitationGone({ m, render });
  }
  let result: Awaited<ReturnType<typeof team.accept>>;
  try {
    result = await team.accept(
      req.params.token,
      formField(req.body, 'password'),
      formField(req.body, 'confirm'),
      req.ip,
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') {
      return invitationGone({ m, render });
    }
    throw error;
  }
  if (!result.ok) {
    const [problems, status] =
      'throttled' in result ? [[lockedOut(reply, m, result.retryAfterSeconds)], LOCKED_OUT] : [result.problems, 400];
    return render(m.t('Join the dashboard'), invitationForm(m, csrfToken(), req.url, inv, problems), status);
  }
  // Accepting is not signing in: the new member signs in with the password just chosen.
  return redirect('/dashboard/login');
}

/** An unknown, used or expired invitation: a 404 page. */
function invitationGone({ m, render }: Pick<PublicRequest, 'm' | 'render'>) {
  return render(
    m.t('Join the dashboard'),
    messagePage(
      m.t('Join the dashboard'),
      m.t('This invitation is unknown, used or expired. Ask the owner for a new one.'),
      null,
    ),
    404,
  );
}
