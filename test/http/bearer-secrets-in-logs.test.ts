import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import { createPaymentLink } from '../support/builders.ts';
import { DashboardClient, pathOf, TEST_PASSWORD, uniqueEmail } from '../support/dashboard-client.ts';
import { pay } from '../support/payments.ts';
import type { TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

/**
 * Whoever reads a log line must not be able to open a link with it (docs/dashboard.md,
 * "Security"; docs/operations.md, "Observability"). A run on the production logger that uses
 * every kind of link collects every token, signature and cookie it was issued, then looks for
 * each in every log line, the way card-data.r19.test.ts looks for card numbers.
 */

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const ORIGIN = 'http://127.0.0.1:3000';

/** Secrets are long random strings: shorter parts (ids, timestamps) are not collected. */
const SECRET_LENGTH = 32;

/** Every secret a run was given, from links, cookies and forms. */
class Issued {
  readonly secrets = new Set<string>();

  private add(value: string | null | undefined): void {
    for (const part of (value ?? '').split('.')) {
      if (part.length >= SECRET_LENGTH) {
        this.secrets.add(part);
      }
    }
  }

  /** A link's token (`/dashboard/invitations/{token}`, `/dashboard/reset/{token}`) and its `sig`. */
  link(url: string): void {
    const parsed = new URL(url, ORIGIN);
    const token = /^\/dashboard\/(?:invitations|reset)\/([^/]+)$/.exec(parsed.pathname)?.[1];
    this.add(token);
    this.add(parsed.searchParams.get('sig'));
  }

  /** Every link in a text (an e-mail). */
  links(text: string): void {
    for (const url of text.match(/https?:\/\/\S+/g) ?? []) {
      this.link(url);
    }
  }

  /** What an answer hands out: cookies (sessions, CSRF, the plan link's), form tokens, where it redirects. */
  response(res: LightMyRequestResponse): void {
    const cookies = res.headers['set-cookie'];
    for (const line of Array.isArray(cookies) ? cookies : cookies ? [cookies] : []) {
      const pair = line.split(';')[0] ?? '';
      this.add(decodeURIComponent(pair.slice(pair.indexOf('=') + 1)));
    }
    for (const m of res.body.matchAll(/name="(?:csrf_token|sig)" value="([^"]+)"/g)) {
      this.add(m[1]);
    }
    if (res.headers.location) {
      this.link(String(res.headers.location));
    }
  }
}

/** `app` whose every answer is searched for secrets, as a browser would receive them. */
function recorded(app: FastifyInstance, issued: Issued): FastifyInstance {
  const inject = async (options: InjectOptions) => {
    const res = await app.inject({ ...options, headers: { 'user-agent': BROWSER, ...options.headers } });
    issued.response(res);
    return res;
  };
  return Object.assign(Object.create(app) as FastifyInstance, { inject });
}

async function signIn(browser: DashboardClient, email: string, password = TEST_PASSWORD) {
  await browser.get('/dashboard/login');
  const res = await browser.post('/dashboard/login', { email, password });
  assert.equal(res.statusCode, 303, res.body);
}

/** Opens an invitation as its recipient: the page, a link checker's HEAD, a refused try, then the right one. */
async function useInvitation(app: FastifyInstance, url: string, options: { newAccount: boolean }) {
  const path = pathOf(url);
  const browser = new DashboardClient(app);
  assert.equal((await browser.get(path)).statusCode, 200);
  assert.equal((await app.inject({ method: 'HEAD', url: path })).statusCode, 200);
  const refused = await browser.post(path, { password: 'not the password at all', confirm: 'something else' });
  assert.equal(refused.statusCode, 400, refused.body);
  const accepted = await browser.post(path, { password: TEST_PASSWORD, confirm: TEST_PASSWORD });
  assert.equal(accepted.statusCode, 303, `${options.newAccount ? 'new' : 'existing'} account: ${accepted.body}`);
  assert.equal((await browser.get(path)).statusCode, 404, 'used');
}

async function mailsTo(ctx: TestApp, to: string): Promise<string[]> {
  const rows = await ctx.cobro.database.db
    .selectFrom('outbound_emails')
    .select('text_body')
    .where('to_address', '=', to)
    .execute();
  return rows.map((r) => r.text_body);
}

/** The production logger's configuration, at its most talkative level, writing into `lines`. */
function productionLogs() {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, options: { logStream, productionLogger: true, env: { LOG_LEVEL: 'trace' } } };
}

/** Sends `request` as raw bytes to the listening `app` and waits until the server closes the connection. */
async function sendRaw(app: FastifyInstance, request: string): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk) => {
      answer += String(chunk);
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describeBackends('bearer secrets in the logs', (build) => {
  test('no log line of a run that uses invitation, password-reset, subscription and plan links holds a token, signature or cookie it issued', async (t) => {
    const { lines, options } = productionLogs();
    const ctx = await build(t, options);
    const issued = new Issued();
    const app = recorded(ctx.app, issued);
    const team = ctx.cobro.services.dashboard.team;

    // 1. An invitation from the command line, accepted by a new person, who signs in.
    const ownerEmail = uniqueEmail('owner');
    const cliInvitation = await team.invite(ctx.merchant.id, ownerEmail, 'owner', CLI_ACTOR);
    issued.link(cliInvitation.inviteUrl);
    await useInvitation(app, cliInvitation.inviteUrl, { newAccount: true });
    const owner = new DashboardClient(app);
    await signIn(owner, ownerEmail);

    // 2. An invitation the owner sends from Settings → Team, read from its e-mail.
    const devEmail = uniqueEmail('dev');
    await owner.get('/dashboard/settings/team');
    const invited = await owner.post('/dashboard/settings/team/invite', { email: devEmail, role: 'developer' });
    assert.equal(invited.statusCode, 303, invited.body);
    const [inviteMail = ''] = await mailsTo(ctx, devEmail);
    issued.links(inviteMail);
    const teamLink = /https?:\/\/\S+\/dashboard\/invitations\/\S+/.exec(inviteMail)?.[0];
    assert.ok(teamLink, inviteMail);
    await useInvitation(app, teamLink, { newAccount: true });

    // 3. An invitation to another merchant for someone who already has an account.
    const other = await ctx.createMerchant();
    const existing = await team.invite(other.id, ownerEmail, 'viewer', CLI_ACTOR);
    issued.link(existing.inviteUrl);
    await useInvitation(app, existing.inviteUrl, { newAccount: false });

    // 4. A password reset asked for, opened, refused once and used.
    const asker = new DashboardClient(app);
    await asker.get('/dashboard/forgot');
    assert.equal((await asker.post('/dashboard/forgot', { email: devEmail })).statusCode, 303);
    const resetMail = (await mailsTo(ctx, devEmail)).find((text) => text.includes('/dashboard/reset/')) ?? '';
    issued.links(resetMail);
    const resetPath = pathOf(/https?:\/\/\S+\/dashboard\/reset\/\S+/.exec(resetMail)?.[0] ?? ORIGIN);
    assert.equal((await asker.get(resetPath)).statusCode, 200, resetMail);
    assert.equal((await asker.post(resetPath, { password: 'short', confirm: 'short' })).statusCode, 400);
    const newPassword = 'a brand new passphrase';
    assert.equal((await asker.post(resetPath, { password: newPassword, confirm: newPassword })).statusCode, 303);
    assert.equal((await asker.get(resetPath)).statusCode, 404, 'used');
    await signIn(new DashboardClient(app), devEmail, newPassword);

    // 5. A plan link opened twice by one browser (its cookie brings it back to its checkout).
    const plan = await createPaymentLink(ctx.app, ctx.merchant, { title: 'Coffee club', amount: 12.5 });
    const visitor = new DashboardClient(app);
    const first = await visitor.get(`/l/${plan.id}`);
    assert.equal(first.statusCode, 303, first.body);
    assert.equal((await visitor.get(`/l/${plan.id}`)).headers.location, first.headers.location);
    const checkout = pathOf(String(first.headers.location));
    assert.equal((await visitor.get(checkout)).statusCode, 200);

    // 6. That checkout paid: the payer's subscription link, its page, the cancel confirmation, the cancellation.
    const order = await pay(ctx.app, ctx.merchant, checkout.split('/').pop() ?? '');
    assert.equal(order.statusCode, 201, order.body);
    const recId = String(order.json().recurrent_payment_id);
    const payerLink = await ctx.app.inject({
      url: `/v1/test_helpers/recurrent_payments/${recId}/payer_link`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(payerLink.statusCode, 200, payerLink.body);
    const subscriptionUrl = String(payerLink.json().url);
    issued.link(subscriptionUrl);
    const sig = new URL(subscriptionUrl).searchParams.get('sig') ?? '';
    const payer = new DashboardClient(app);
    assert.equal((await payer.get(pathOf(subscriptionUrl))).statusCode, 200);
    assert.equal((await payer.get(`/subscriptions/${recId}/cancel?sig=${encodeURIComponent(sig)}`)).statusCode, 200);
    const canceled = await payer.post(`/subscriptions/${recId}/cancel`, { sig });
    assert.equal(canceled.statusCode, 303, canceled.body);
    assert.equal((await payer.get(String(canceled.headers.location))).statusCode, 200);

    // Every e-mail of the run, whoever it went to.
    for (const row of await ctx.cobro.database.db.selectFrom('outbound_emails').select('text_body').execute()) {
      issued.links(row.text_body);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));

    const log = lines.join('');
    assert.ok(issued.secrets.size >= 10, `too few secrets collected: ${issued.secrets.size}`);
    for (const secret of issued.secrets) {
      for (const form of new Set([secret, encodeURIComponent(secret)])) {
        const at = log.indexOf(form);
        assert.equal(at, -1, `${form} is in the log: …${log.slice(Math.max(0, at - 300), at + 100)}…`);
      }
    }
    // The log saw every kind of link, each line naming its route.
    assert.ok(log.includes('"path":"/dashboard/invitations/[redacted]"'), 'the log saw the invitation pages');
    assert.ok(log.includes('"path":"/dashboard/reset/[redacted]"'), 'the log saw the reset pages');
    assert.ok(log.includes(`"path":"/subscriptions/${recId}/cancel"`), 'the log saw the subscription pages');
    assert.ok(log.includes(`"path":"/l/${plan.id}"`), 'the log saw the plan link');
  });

  test('a request the server cannot parse is logged without its bytes: neither the token in its path nor its cookie', async (t) => {
    const { lines, options } = productionLogs();
    const ctx = await build(t, options);
    const token = 'InvitationTokenInvitationTokenInvitationTok';
    const session = 'SessionTokenSessionTokenSessionTokenSession';
    const answer = await sendRaw(
      ctx.app,
      `GET /dashboard/invitations/${token} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: cobro_session=${session}\r\nNot a header\r\n\r\n`,
    );
    assert.match(answer, /^HTTP\/1\.1 400/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const log = lines.join('');
    assert.match(log, /"msg":"client error"/, 'the malformed request was logged');
    assert.ok(!log.includes('"rawPacket":{'), log);
    const bytes = (text: string) => [...Buffer.from(text)].join(',');
    for (const secret of [token, session]) {
      assert.ok(!log.includes(secret) && !log.includes(bytes(secret)), `${secret} is in the log: ${log}`);
    }
  });
});
