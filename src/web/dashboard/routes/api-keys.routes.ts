import { keyRef } from '../../../domain/merchants/credentials.ts';
import type { ApiKey } from '../../../domain/merchants/merchant.ts';
import { AppError } from '../../../domain/shared/errors.ts';
import { formField } from '../../kit/form-input.ts';
import { t as tr } from '../i18n.ts';
import type { DashContext, DashRequest, DashRouter } from '../router.ts';
import type { KeyRow } from '../views/api-keys.views.ts';
import { keyCreatedPage, keyListPage, keyPrefix, keyRevokePage } from '../views/api-keys.views.ts';

/**
 * API keys of this mode (MerchantService): the list, a new named key pair (its secret shown once)
 * and revocation. A key is addressed by `keyRef`, never by the key itself.
 */
export function apiKeysRoutes(r: DashRouter): void {
  r.page('/developers/keys', showKeys);
  r.action('/developers/keys', 'keys.write', createKeyPair);
  r.page('/developers/keys/:id/revoke', confirmRevokeKey, 'keys.write');
  r.action('/developers/keys/:id/revoke', 'keys.write', revokeKey);
}

type KeysQuery = { Querystring: { revoked?: string } };
type KeyParams = { Params: { id: string } };

/**
 * One of the merchant's keys of this mode by its reference (`keyRef`), or NOT_FOUND: a reference
 * only finds a key in the merchant's own list of this mode.
 */
async function keyByRef({ ctx, services }: Pick<DashRequest, 'ctx' | 'services'>, ref: string): Promise<ApiKey> {
  const key = (await services.merchants.listKeys(ctx.merchantId, ctx.mode)).find((k) => keyRef(k.key) === ref);
  if (!key) {
    throw new AppError('NOT_FOUND', ['api key not found']);
  }
  return key;
}

/** The list with the creation form (holding `form`'s name and problems when it was refused). */
async function sendKeyList(
  { req, ctx, services, render, csrfToken }: DashRequest<KeysQuery>,
  form: { name: string; problems: string[] },
  status = 200,
) {
  const keys = await services.merchants.listKeys(ctx.merchantId, ctx.mode);
  return render(
    'developers',
    tr('API keys'),
    keyListPage({
      base: ctx.base,
      csrf: csrfToken(),
      canWrite: ctx.can('keys.write'),
      mode: ctx.mode,
      rows: keys.map((key): KeyRow => ({ key, ref: keyRef(key.key) })),
      notice: req.query.revoked !== undefined ? tr('Key revoked: the API refuses it from now on.') : null,
      problems: form.problems,
      name: form.name,
    }),
    status,
  );
}

async function showKeys(r: DashRequest<KeysQuery>) {
  return sendKeyList(r, { name: '', problems: [] });
}

async function createKeyPair(r: DashRequest<KeysQuery>) {
  const { req, ctx, services, render, audit } = r;
  const name = formField(req.body, 'name').trim().slice(0, 400);
  if ([...name].length > 100) {
    return sendKeyList(r, { name, problems: [tr('Name must be at most 100 characters.')] }, 400);
  }
  const pair = await services.merchants.createKeyPair(ctx.merchantId, ctx.mode, name === '' ? null : name);
  await audit(keyEntry(ctx, 'api_key.create', pair.apiKey, name || null));
  // The one answer that shows the secret: nothing keeps it, so a reload cannot show it again.
  return render(
    'developers',
    tr('Key pair created'),
    keyCreatedPage({ base: ctx.base, name: name || null, apiKey: pair.apiKey, apiSecret: pair.apiSecret }),
    201,
  );
}

async function confirmRevokeKey(r: DashRequest<KeyParams>) {
  const { req, ctx, render, redirect, csrfToken } = r;
  const key = await keyByRef(r, req.params.id);
  if (key.revokedAt !== null) {
    return redirect(`${ctx.base}/developers/keys`);
  }
  return render(
    'developers',
    tr('Revoke key'),
    keyRevokePage({ base: ctx.base, csrf: csrfToken(), key, ref: req.params.id }),
  );
}

async function revokeKey(r: DashRequest<KeyParams>) {
  const { req, ctx, services, redirect, audit } = r;
  const key = await keyByRef(r, req.params.id);
  if (key.revokedAt === null) {
    await services.merchants.revokeMerchantKey(ctx.merchantId, ctx.mode, key.key);
    await audit(keyEntry(ctx, 'api_key.revoke', key.key, key.name ?? null));
  }
  return redirect(`${ctx.base}/developers/keys?revoked=1`);
}

/** A key's audit entry: its prefix only, its name and the mode. */
const keyEntry = (ctx: DashContext, action: string, key: string, name: string | null) => ({
  action,
  objectType: 'api_key',
  objectId: keyPrefix(key),
  detail: { mode: ctx.mode, name },
});
