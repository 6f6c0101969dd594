import { t as tr } from '../i18n.ts';
import type { DashRequest, DashRouter } from '../router.ts';
import { auditLogPage } from '../views/account.views.ts';

/** The merchant's audit log (owners only), 50 entries a page, newest first. */
export function auditLogRoutes(r: DashRouter): void {
  r.page('/settings/audit', showAuditLog, 'team.manage');
}

const PAGE_SIZE = 50;

/** `?before=<at>:<id>`: the last entry of the previous page; anything else starts from the newest. */
const BEFORE = /^(\d{1,15}):([A-Za-z0-9]{1,40})$/;

async function showAuditLog({ req, ctx, services, render }: DashRequest<{ Querystring: { before?: string } }>) {
  const match = BEFORE.exec(String(req.query.before ?? ''));
  const entries = await services.dashboard.audit.list(
    ctx.merchantId,
    match ? { at: Number(match[1]), id: match[2] ?? '' } : null,
  );
  const last = entries.at(-1);
  const olderHref =
    entries.length === PAGE_SIZE && last ? `${ctx.base}/settings/audit?before=${last.at}:${last.id}` : null;
  return render('settings', tr('Audit log'), auditLogPage(entries, olderHref));
}
