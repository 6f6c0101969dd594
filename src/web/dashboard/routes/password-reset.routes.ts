import { AppError } from '../../../domain/shared/errors.ts';
import { formField } from '../../kit/form-input.ts';
import type { DashRouter, PublicRequest } from '../router.ts';
import { BEARER_TOKEN } from '../router.ts';
import { forgotForm, messagePage, resetForm } from '../views/auth.views.ts';

/**
 * A forgotten password: asking for a reset link by e-mail, then choosing a new password on the
 * link's page. The answer to the request is the same whether or not the address has an account.
 */
export function passwordResetRoutes(r: DashRouter): void {
  r.publicPage('/dashboard/forgot', showForgot);
  r.publicAction('/dashboard/forgot', requestReset);
  // The token sets the account's password: it never reaches a log line.
  r.publicPage('/dashboard/reset/:token', showReset, BEARER_TOKEN);
  r.publicAction('/dashboard/reset/:token', resetPassword, BEARER_TOKEN);
}

type ResetRoute = { Params: { token: string } };

async function showForgot({ req, m, render, csrfToken }: PublicRequest<{ Querystring: { sent?: string } }>) {
  const sent = req.query.sent === '1';
  return render(m.t('Reset your password'), forgotForm(m, csrfToken(), sent));
}

async function requestReset({ req, services, redirect }: PublicRequest) {
  await services.dashboard.account.requestReset(formField(req.body, 'email'));
  // The same answer whether or not the address has an account.
  return redirect('/dashboard/forgot?sent=1');
}

async function showReset({ req, services, m, render, csrfToken }: PublicRequest<ResetRoute>) {
  if (!(await services.dashboard.account.openReset(req.params.token))) {
    return resetGone({ m, render });
  }
  return render(m.t('Reset your password'), resetForm(m, csrfToken(), req.url, []));
}

async function resetPassword({ req, services, m, render, redirect, csrfToken }: PublicRequest<ResetRoute>) {
  try {
    const result = await services.dashboard.account.reset(
      req.params.token,
      formField(req.body, 'password'),
      formField(req.body, 'confirm'),
    );
    if (!result.ok) {
      return render(m.t('Reset your password'), resetForm(m, csrfToken(), req.url, result.problems), 400);
    }
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') {
      return resetGone({ m, render });
    }
    throw error;
  }
  return redirect('/dashboard/login?done=reset');
}

/** An unknown, used or expired link: a 404 page that offers a new one. */
function resetGone({ m, render }: Pick<PublicRequest, 'm' | 'render'>) {
  return render(
    m.t('Reset your password'),
    messagePage(m.t('Reset your password'), m.t('This link is unknown, used or expired. Ask for a new one.'), {
      href: '/dashboard/forgot',
      label: m.t('Forgot your password?'),
    }),
    404,
  );
}
