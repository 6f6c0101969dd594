import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** PUBLIC_URL of the test harness: the origin a payer's browser posts from. */
export const OUR_ORIGIN = 'http://127.0.0.1:3000';
export const FORM = 'application/x-www-form-urlencoded';

/** What a browser keeps between a payer page and its form's POST: the CSRF cookie and the form's token. */
export type Session = { cookie: string; token: string };

export function cookieFrom(res: LightMyRequestResponse): string | null {
  const header = res.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  return first ? (first.split(';')[0] ?? null) : null;
}

export function tokenFrom(body: string): string {
  const m = /name="csrf_token" value="([^"]+)"/.exec(body);
  assert.ok(m?.[1], `no CSRF token in the page: ${body.slice(0, 400)}`);
  return m[1];
}

/** The hidden fields a page's form posts besides its CSRF token, decoded as a browser would send them. */
export function hiddenFieldsOf(body: string): Record<string, string> {
  const entities: Record<string, string> = { lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' };
  const fields: Record<string, string> = {};
  for (const [, name = '', value = ''] of body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    if (name !== 'csrf_token') {
      fields[name] = value.replace(/&(lt|gt|quot|#39|amp);/g, (_all, entity: string) => entities[entity] ?? '');
    }
  }
  return fields;
}

/** Posts a page's form as a browser would: with the session's cookie and token, from our origin unless told. */
export function postForm(
  app: FastifyInstance,
  url: string,
  session: Session | null,
  fields: Record<string, string>,
  headers: Record<string, string> = { origin: OUR_ORIGIN },
): Promise<LightMyRequestResponse> {
  const body = new URLSearchParams(session ? { csrf_token: session.token, ...fields } : fields).toString();
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': FORM, ...(session ? { cookie: session.cookie } : {}), ...headers },
    payload: body,
  });
}
