import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import type { AuditEntry } from '../../src/domain/dashboard/dashboard-user.ts';
import type { TestApp } from './test-app.ts';

/**
 * A browser without JavaScript over app.inject: keeps cookies (by name, as the dashboard sets
 * them), sends forms url-encoded with the CSRF token of the last page it read, and sends the
 * Origin a same-site form post would carry. `address` is the address it connects from (a test
 * may change it, as a person moving networks would).
 */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  lastBody = '';

  constructor(
    private readonly app: FastifyInstance,
    private readonly origin = 'http://127.0.0.1:3000',
    public address = '127.0.0.1',
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: LightMyRequestResponse): void {
    const raw = res.headers['set-cookie'];
    for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const [pair = '', ...attrs] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (attrs.some((a) => /max-age=0/i.test(a)) || value === '') {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.address,
      headers: { cookie: this.cookieHeader(), ...headers },
    });
    this.remember(res);
    this.lastBody = res.body;
    return res;
  }

  /** The CSRF token of the last page read (every dashboard form carries it). */
  csrf(): string {
    return /name="csrf_token" value="([^"]+)"/.exec(this.lastBody)?.[1] ?? '';
  }

  async post(
    url: string,
    fields: Record<string, string>,
    options: { csrf?: string | null; origin?: string | null } = {},
  ): Promise<LightMyRequestResponse> {
    const token = options.csrf === undefined ? this.csrf() : options.csrf;
    const body = new URLSearchParams({ ...(token === null ? {} : { csrf_token: token }), ...fields }).toString();
    const origin = options.origin === undefined ? this.origin : options.origin;
    const res = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.address,
      payload: body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(),
        ...(origin === null ? {} : { origin }),
      },
    });
    this.remember(res);
    if (res.headers['content-type']?.toString().startsWith('text/html')) {
      this.lastBody = res.body;
    }
    return res;
  }

  /**
   * Posts a form as a browser posts one with file inputs (multipart/form-data): the CSRF token
   * of the last page read, the text fields, then each file (an input left empty sends an empty
   * file part, as browsers do).
   */
  async postMultipart(
    url: string,
    fields: Record<string, string>,
    files: { field: string; name: string; type?: string; bytes: Buffer }[],
    options: { csrf?: string | null } = {},
  ): Promise<LightMyRequestResponse> {
    const boundary = `----cobro${randomBytes(8).toString('hex')}`;
    const token = options.csrf === undefined ? this.csrf() : options.csrf;
    const texts = { ...(token === null ? {} : { csrf_token: token }), ...fields };
    const parts: Buffer[] = Object.entries(texts).map(([name, value]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
    for (const file of files) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        file.bytes,
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    const res = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.address,
      payload: Buffer.concat(parts),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: this.cookieHeader(),
        origin: this.origin,
      },
    });
    this.remember(res);
    if (res.headers['content-type']?.toString().startsWith('text/html')) {
      this.lastBody = res.body;
    }
    return res;
  }

  /** Reads the form page first (for its token), then posts to it. */
  async submit(page: string, action: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    await this.get(page);
    return this.post(action, fields);
  }
}

/** The invitation link's path (`/dashboard/invitations/…`) from a full URL. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

export const TEST_PASSWORD = 'correct horse battery staple';

/**
 * An address of its own for each test: accounts are global, and on PostgreSQL the tests of a
 * file share one database, so a fixed address would already belong to an earlier test's merchant.
 */
export function uniqueEmail(local: string): string {
  return `${local}-${randomBytes(4).toString('hex')}@shop.example`;
}

/** Invites `email` with `role` (as the command line does) and accepts it in a fresh client. */
export async function acceptInvitation(
  ctx: Pick<TestApp, 'app' | 'cobro' | 'merchant'>,
  email: string,
  role: string,
  merchantId = ctx.merchant.id,
) {
  const invitation = await ctx.cobro.services.dashboard.team.invite(merchantId, email, role, CLI_ACTOR);
  const browser = new DashboardClient(ctx.app);
  const page = await browser.get(pathOf(invitation.inviteUrl));
  assert.equal(page.statusCode, 200, page.body);
  const accepted = await browser.post(pathOf(invitation.inviteUrl), {
    password: TEST_PASSWORD,
    confirm: TEST_PASSWORD,
  });
  assert.equal(accepted.statusCode, 303, accepted.body);
  return { browser, invitation };
}

/** A member with `role`, invited, accepted and signed in: the client holds the session. */
export async function signedInMember(
  ctx: Pick<TestApp, 'app' | 'cobro' | 'merchant'>,
  role: string,
  options: { merchantId?: string; email?: string } = {},
): Promise<DashboardClient & { email: string }> {
  const email = options.email ?? uniqueEmail(role);
  const { browser } = await acceptInvitation(ctx, email, role, options.merchantId);
  await browser.get('/dashboard/login');
  const res = await browser.post('/dashboard/login', { email, password: TEST_PASSWORD });
  assert.equal(res.statusCode, 303, res.body);
  return Object.assign(browser, { email });
}

/** A merchant's payment connection entries in its audit log (`payment_connection.*`), oldest first. */
export async function connectionAudits(
  ctx: Pick<TestApp, 'cobro' | 'merchant'>,
  merchantId = ctx.merchant.id,
): Promise<AuditEntry[]> {
  const entries = await ctx.cobro.services.dashboard.audit.list(merchantId, null);
  return entries.filter((e) => e.action.startsWith('payment_connection.')).reverse();
}
