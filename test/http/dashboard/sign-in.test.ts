import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLI_ACTOR } from '../../../src/domain/dashboard/audit.ts';
import { totpCode } from '../../../src/domain/dashboard/totp.ts';
import {
  acceptInvitation,
  DashboardClient,
  pathOf,
  TEST_PASSWORD,
  uniqueEmail,
} from '../../support/dashboard-client.ts';
import { describeBackends } from '../../support/test-app.ts';

const PASSWORD = TEST_PASSWORD;

const member = acceptInvitation;
const unique = uniqueEmail;

async function signIn(browser: DashboardClient, email: string, password = PASSWORD) {
  await browser.get('/dashboard/login');
  return browser.post('/dashboard/login', { email, password });
}

describeBackends('dashboard sign-in', (build) => {
  test('an invited owner sets a password, signs in, and sees the dashboard with its navigation', async (t) => {
    const ownerEmail = unique('owner');
    const ctx = await build(t);
    const { browser } = await member(ctx, ownerEmail.toUpperCase(), 'owner');
    const before = await browser.get('/dashboard');
    assert.equal(before.statusCode, 303);
    assert.equal(before.headers.location, '/dashboard/login?next=%2Fdashboard');
    const signedIn = await signIn(browser, ownerEmail);
    assert.equal(signedIn.statusCode, 303, signedIn.body);
    const cookie = String(signedIn.headers['set-cookie']);
    assert.match(cookie, /cobro_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Lax/);
    assert.doesNotMatch(cookie, /Secure/, 'PUBLIC_URL is http in tests');
    const home = await browser.get('/dashboard/test');
    assert.equal(home.statusCode, 200);
    for (const name of ['Home', 'Payments', 'Subscriptions', 'Developers', 'Settings']) {
      assert.match(home.body, new RegExp(`<a href="/dashboard/test[a-z/]*"[^>]*>${name}</a>`), name);
    }
    assert.match(home.body, /data-test="test-mode-banner"/);
    assert.match(String(home.headers['content-security-policy']), /script-src 'nonce-/);
  });

  test('the invitation link works once and refuses a short, common or mismatched password', async (t) => {
    const devEmail = unique('dev');
    const ctx = await build(t);
    const invitation = await ctx.cobro.services.dashboard.team.invite(
      ctx.merchant.id,
      devEmail,
      'developer',
      CLI_ACTOR,
    );
    const browser = new DashboardClient(ctx.app);
    const path = pathOf(invitation.inviteUrl);
    await browser.get(path);
    for (const [password, confirm, message] of [
      ['short', 'short', /at least 12 characters/],
      ['password1234', 'password1234', /too common/],
      ['a long enough one', 'a different one!!', /do not match/],
    ] as const) {
      const res = await browser.post(path, { password, confirm });
      assert.equal(res.statusCode, 400);
      assert.match(res.body, message);
    }
    assert.equal((await browser.post(path, { password: PASSWORD, confirm: PASSWORD })).statusCode, 303);
    const again = await browser.get(path);
    assert.equal(again.statusCode, 404);
    assert.match(again.body, /unknown, used or expired/);
  });

  test('an unknown e-mail and a wrong password get the same answer, and sign-in is throttled per account', async (t) => {
    const nobodyEmail = unique('nobody');
    const ownerEmail = unique('owner');
    const ctx = await build(t);
    await member(ctx, ownerEmail, 'owner');
    const browser = new DashboardClient(ctx.app);
    const unknown = await signIn(browser, nobodyEmail);
    const wrong = await signIn(browser, ownerEmail, 'not the password at all');
    assert.equal(unknown.statusCode, 401);
    assert.equal(wrong.statusCode, 401);
    const text = (body: string) => /data-test="problems"><ul><li>([^<]+)</.exec(body)?.[1];
    assert.equal(text(unknown.body), text(wrong.body));
    for (let i = 0; i < 4; i++) {
      await signIn(browser, ownerEmail, `wrong ${i} wrong wrong`);
    }
    const throttled = await signIn(browser, ownerEmail);
    assert.equal(throttled.statusCode, 429, 'even the right password waits');
    assert.ok(Number(throttled.headers['retry-after']) > 0);
    ctx.clock.advance(16 * 60_000);
    assert.equal((await signIn(browser, ownerEmail)).statusCode, 303);
  });

  test('a session id planted before sign-in is replaced, and the old one opens nothing', async (t) => {
    const ownerEmail = unique('owner');
    const ctx = await build(t);
    const { browser } = await member(ctx, ownerEmail, 'owner');
    const planted = 'A'.repeat(43);
    browser.cookies.set('cobro_session', planted);
    await signIn(browser, ownerEmail);
    const issued = browser.cookies.get('cobro_session');
    assert.ok(issued && issued !== planted);
    const attacker = new DashboardClient(ctx.app);
    attacker.cookies.set('cobro_session', planted);
    assert.equal((await attacker.get('/dashboard')).statusCode, 303);
  });

  test('sessions end after 12 idle hours, and at 7 days however active', async (t) => {
    const ownerEmail = unique('owner');
    const ctx = await build(t);
    const { browser } = await member(ctx, ownerEmail, 'owner');
    await signIn(browser, ownerEmail);
    ctx.clock.advance(11 * 3_600_000);
    assert.equal((await browser.get('/dashboard')).statusCode, 200);
    ctx.clock.advance(12 * 3_600_000 + 1000);
    assert.equal((await browser.get('/dashboard')).statusCode, 303, 'idle for more than 12 hours');
    await signIn(browser, ownerEmail);
    // Active every 11 hours for 165 hours: still in; at 169 hours (7 days and 1 hour): out.
    for (let i = 0; i < 15; i++) {
      ctx.clock.advance(11 * 3_600_000);
      assert.equal((await browser.get('/dashboard')).statusCode, 200, `after ${(i + 1) * 11} hours`);
    }
    ctx.clock.advance(4 * 3_600_000);
    assert.equal((await browser.get('/dashboard')).statusCode, 303, 'older than 7 days');
  });

  test('a cross-origin POST, or one without the token, is refused with 403 and changes nothing', async (t) => {
    const ownerEmail = unique('owner');
    const xEmail = unique('x');
    const ctx = await build(t);
    const { browser } = await member(ctx, ownerEmail, 'owner');
    await signIn(browser, ownerEmail);
    await browser.get('/dashboard/settings/team');
    const token = browser.csrf();
    const evil = await browser.post(
      '/dashboard/settings/team/invite',
      { email: 'x@evil.example', role: 'owner' },
      { origin: 'https://evil.example' },
    );
    assert.equal(evil.statusCode, 403);
    const tokenless = await browser.post(
      '/dashboard/settings/team/invite',
      { email: 'x@evil.example', role: 'owner' },
      { csrf: null },
    );
    assert.equal(tokenless.statusCode, 403);
    const forged = await browser.post(
      '/dashboard/settings/team/invite',
      { email: 'x@evil.example', role: 'owner' },
      { csrf: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` },
    );
    assert.equal(forged.statusCode, 403);
    assert.deepEqual(await ctx.cobro.services.dashboard.team.pendingInvitations(ctx.merchant.id), []);
    const ok = await browser.post(
      '/dashboard/settings/team/invite',
      { email: xEmail, role: 'viewer' },
      { csrf: token },
    );
    assert.equal(ok.statusCode, 303);
    assert.equal((await ctx.cobro.services.dashboard.team.pendingInvitations(ctx.merchant.id)).length, 1);
  });

  test('two-factor: enrol with a QR code and a first code, then sign-in asks for a code; a code works once, and a recovery code once', async (t) => {
    const ownerEmail = unique('owner');
    const ctx = await build(t);
    const { browser } = await member(ctx, ownerEmail, 'owner');
    await signIn(browser, ownerEmail);
    await browser.get('/dashboard/settings/security');
    assert.equal((await browser.post('/dashboard/settings/security/2fa/start', {})).statusCode, 303);
    const page = await browser.get('/dashboard/settings/security');
    assert.match(page.body, /<svg/);
    const secret = /data-test="totp-secret">([A-Z2-7]+)</.exec(page.body)?.[1] ?? '';
    assert.ok(secret.length >= 32, page.body);
    const wrong = await browser.post('/dashboard/settings/security/2fa/confirm', {
      password: PASSWORD,
      code: '000000' === totpCode(secret, ctx.clock.now().getTime()) ? '111111' : '000000',
    });
    assert.equal(wrong.statusCode, 200);
    assert.match(wrong.body, /not right/);
    const confirmed = await browser.post('/dashboard/settings/security/2fa/confirm', {
      password: PASSWORD,
      code: totpCode(secret, ctx.clock.now().getTime()),
    });
    const codes = [...confirmed.body.matchAll(/<li>([a-z0-9-]{10,})<\/li>/g)].map((x) => x[1] ?? '');
    assert.equal(codes.length, 10, confirmed.body);

    const fresh = new DashboardClient(ctx.app);
    const first = await signIn(fresh, ownerEmail);
    assert.equal(first.headers.location, '/dashboard/login/code?next=%2Fdashboard');
    assert.equal(fresh.cookies.has('cobro_session'), false, 'no session before the second factor');
    assert.equal((await fresh.get('/dashboard')).statusCode, 303);
    ctx.clock.advance(30_000);
    const code = totpCode(secret, ctx.clock.now().getTime());
    await fresh.get('/dashboard/login/code');
    const done = await fresh.post('/dashboard/login/code', { code });
    assert.equal(done.statusCode, 303, done.body);
    assert.equal((await fresh.get('/dashboard')).statusCode, 200);

    // The same code again, in another browser: refused (each time step is good once).
    const replay = new DashboardClient(ctx.app);
    await signIn(replay, ownerEmail);
    await replay.get('/dashboard/login/code');
    assert.equal((await replay.post('/dashboard/login/code', { code })).statusCode, 401);
    // A recovery code works, once.
    assert.equal((await replay.post('/dashboard/login/code', { code: codes[0] ?? '' })).statusCode, 303);
    const reuse = new DashboardClient(ctx.app);
    await signIn(reuse, ownerEmail);
    await reuse.get('/dashboard/login/code');
    assert.equal((await reuse.post('/dashboard/login/code', { code: codes[0] ?? '' })).statusCode, 401);
  });

  test('password reset by e-mailed link: same answer for any address, the link works once and ends every session', async (t) => {
    const nobodyEmail = unique('nobody');
    const ownerEmail = unique('owner');
    const ctx = await build(t);
    const { browser } = await member(ctx, ownerEmail, 'owner');
    await signIn(browser, ownerEmail);
    const asker = new DashboardClient(ctx.app);
    await asker.get('/dashboard/forgot');
    const known = await asker.post('/dashboard/forgot', { email: ownerEmail });
    await asker.get('/dashboard/forgot');
    const unknown = await asker.post('/dashboard/forgot', { email: nobodyEmail });
    assert.equal(known.headers.location, unknown.headers.location);
    const mails = await ctx.cobro.database.uow.read.emails.listForMerchant(ctx.merchant.id, 'live', 10);
    const mail = mails.find((x) => x.subject.includes('Reset'));
    assert.ok(mail, JSON.stringify(mails));
    const link = /(http:\/\/\S+\/dashboard\/reset\/\S+)/.exec(mail.text)?.[1] ?? '';
    const newPassword = 'a brand new passphrase';
    await asker.get(pathOf(link));
    assert.equal((await asker.post(pathOf(link), { password: newPassword, confirm: newPassword })).statusCode, 303);
    assert.equal((await browser.get('/dashboard')).statusCode, 303, 'the old session ended');
    assert.equal((await asker.get(pathOf(link))).statusCode, 404, 'the link works once');
    assert.equal((await signIn(new DashboardClient(ctx.app), ownerEmail)).statusCode, 401);
    assert.equal((await signIn(new DashboardClient(ctx.app), ownerEmail, newPassword)).statusCode, 303);
  });

  test('sign out, and sign out everywhere else', async (t) => {
    const ownerEmail = unique('owner');
    const ctx = await build(t);
    const { browser } = await member(ctx, ownerEmail, 'owner');
    const other = new DashboardClient(ctx.app);
    await signIn(browser, ownerEmail);
    await signIn(other, ownerEmail);
    await browser.get('/dashboard/settings/security');
    assert.equal((await browser.post('/dashboard/settings/security/sessions/end-others', {})).statusCode, 303);
    assert.equal((await other.get('/dashboard')).statusCode, 303);
    assert.equal((await browser.get('/dashboard')).statusCode, 200);
    assert.equal((await browser.post('/dashboard/logout', {})).statusCode, 303);
    assert.equal((await browser.get('/dashboard')).statusCode, 303);
  });
});

describeBackends('dashboard sign-in behind https (the production PUBLIC_URL)', (build) => {
  test('with an https PUBLIC_URL the session cookie is Secure and pages carry HSTS; a post from the http origin is refused', async (t) => {
    const ctx = await build(t, { env: { PUBLIC_URL: 'https://pay.shop.example' } });
    const email = uniqueEmail('owner');
    const invitation = await ctx.cobro.services.dashboard.team.invite(ctx.merchant.id, email, 'owner', CLI_ACTOR);
    assert.ok(invitation.inviteUrl.startsWith('https://pay.shop.example/dashboard/invitations/'));
    const browser = new DashboardClient(ctx.app, 'https://pay.shop.example');
    const page = await browser.get(pathOf(invitation.inviteUrl));
    assert.match(
      String(page.headers['set-cookie']),
      /cobro_csrf=[^;]+; Path=\/dashboard; HttpOnly; SameSite=Strict; Secure/,
    );
    assert.equal(page.headers['strict-transport-security'], 'max-age=31536000');
    assert.equal(
      (await browser.post(pathOf(invitation.inviteUrl), { password: PASSWORD, confirm: PASSWORD })).statusCode,
      303,
    );
    await browser.get('/dashboard/login');
    const plain = await browser.post(
      '/dashboard/login',
      { email, password: PASSWORD },
      { origin: 'http://pay.shop.example' },
    );
    assert.equal(plain.statusCode, 403, 'another origin, even the same host over http');
    await browser.get('/dashboard/login');
    const signedIn = await browser.post('/dashboard/login', { email, password: PASSWORD });
    assert.equal(signedIn.statusCode, 303, signedIn.body);
    assert.match(
      String(signedIn.headers['set-cookie']),
      /cobro_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Lax; Secure/,
    );
    assert.equal((await browser.get('/dashboard')).statusCode, 200);
  });
});
