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
import type { TestApp } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';

const ORIGIN = 'http://127.0.0.1:3000';
const WINDOW_PASSED_MS = 16 * 60_000;
const SECURITY = '/dashboard/settings/security';

let addresses = 0;
/** An address of its own for each client: on PostgreSQL the tests of a file share one database, and so an address's count. */
const uniqueAddress = () => `10.27.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

/** A member with `role`, signed in from an address of its own. */
async function member(ctx: TestApp, role: string, email = uniqueEmail(role)) {
  const { browser } = await acceptInvitation(ctx, email, role);
  browser.address = uniqueAddress();
  await signIn(browser, email);
  return Object.assign(browser, { email });
}

async function signIn(browser: DashboardClient, email: string, password = TEST_PASSWORD) {
  await browser.get('/dashboard/login');
  return browser.post('/dashboard/login', { email, password });
}

/** Starts enrolment and reads the key the page shows. */
async function startTwoFactor(browser: DashboardClient): Promise<string> {
  await browser.get(SECURITY);
  assert.equal((await browser.post(`${SECURITY}/2fa/start`, {})).statusCode, 303);
  const page = await browser.get(SECURITY);
  const secret = /data-test="totp-secret">([A-Z2-7]+)</.exec(page.body)?.[1];
  assert.ok(secret, page.body);
  return secret;
}

const confirmTwoFactor = (ctx: TestApp, browser: DashboardClient, secret: string, password: string | null) =>
  browser.post(`${SECURITY}/2fa/confirm`, {
    code: totpCode(secret, ctx.clock.now().getTime()),
    ...(password === null ? {} : { password }),
  });

async function twoFactorState(browser: DashboardClient): Promise<'on' | 'off' | 'pending'> {
  const page = await browser.get(SECURITY);
  if (/Two-factor authentication is on since/.test(page.body)) {
    return 'on';
  }
  return /data-test="totp-secret"/.test(page.body) ? 'pending' : 'off';
}

function assertLockedOut(res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  assert.equal(res.statusCode, 429, res.body);
  assert.match(res.body, /Too many failed attempts\. Wait a few minutes and try again\./);
  assert.ok(Number(res.headers['retry-after']) > 0, String(res.headers['retry-after']));
}

describeBackends('one throttle for every password and second-factor check', (build) => {
  test('an invitation for an existing account refuses the right password after five wrong ones, and the account cannot sign in either', async (t) => {
    const ctx = await build(t);
    const victim = uniqueEmail('victim');
    await acceptInvitation(ctx, victim, 'owner');
    const other = await ctx.createMerchant();
    const invitation = await ctx.cobro.services.dashboard.team.invite(other.id, victim, 'owner', CLI_ACTOR);
    const attacker = new DashboardClient(ctx.app, ORIGIN, uniqueAddress());
    const path = pathOf(invitation.inviteUrl);
    await attacker.get(path);
    for (let i = 0; i < 5; i++) {
      const wrong = await attacker.post(path, { password: `not the password ${i}`, confirm: '' });
      assert.equal(wrong.statusCode, 400, wrong.body);
      assert.match(wrong.body, /This is not the password of your existing account/);
    }
    assertLockedOut(await attacker.post(path, { password: TEST_PASSWORD, confirm: '' }));
    const members = await ctx.cobro.services.dashboard.team.members(other.id);
    assert.deepEqual(
      members.map((x) => x.email),
      [],
      'the right password during the lockout joins nothing',
    );
    const owner = new DashboardClient(ctx.app, ORIGIN, uniqueAddress());
    assertLockedOut(await signIn(owner, victim));

    ctx.clock.advance(WINDOW_PASSED_MS);
    await attacker.get(path);
    assert.equal((await attacker.post(path, { password: TEST_PASSWORD, confirm: '' })).statusCode, 303);
    assert.equal((await signIn(owner, victim)).statusCode, 303);
  });

  test('fifty wrong passwords sent at once are checked at most five times, and the right one is then refused', async (t) => {
    const ctx = await build(t);
    const victim = uniqueEmail('burst');
    await acceptInvitation(ctx, victim, 'owner');
    // Each guess from its own address and form, so only the account's limit stands in the way.
    const guessers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const client = new DashboardClient(ctx.app, ORIGIN, uniqueAddress());
        await client.get('/dashboard/login');
        return client;
      }),
    );
    const answers = await Promise.all(
      guessers.map((client, i) => client.post('/dashboard/login', { email: victim, password: `guess ${i}` })),
    );
    const checked = answers.filter((res) => res.statusCode !== 429);
    assert.ok(checked.length <= 5, `${checked.length} guesses were checked`);
    for (const res of checked) {
      assert.equal(res.statusCode, 401, res.body);
    }
    assertLockedOut(await signIn(new DashboardClient(ctx.app, ORIGIN, uniqueAddress()), victim));
  });

  test('turning two-factor off asks for the password, refuses the right one after five wrong ones, and stays on', async (t) => {
    const ctx = await build(t);
    const owner = await member(ctx, 'owner');
    const secret = await startTwoFactor(owner);
    assert.match((await confirmTwoFactor(ctx, owner, secret, TEST_PASSWORD)).body, /data-test="recovery-codes"/);
    for (let i = 0; i < 5; i++) {
      await owner.get(SECURITY);
      const wrong = await owner.post(`${SECURITY}/2fa/disable`, { password: `not the password ${i}` });
      assert.equal(wrong.statusCode, 400, wrong.body);
      assert.match(wrong.body, /The password is not right\./);
    }
    await owner.get(SECURITY);
    assertLockedOut(await owner.post(`${SECURITY}/2fa/disable`, { password: TEST_PASSWORD }));
    assert.equal(await twoFactorState(owner), 'on');
    assertLockedOut(await signIn(new DashboardClient(ctx.app, ORIGIN, uniqueAddress()), owner.email));

    ctx.clock.advance(WINDOW_PASSED_MS);
    await owner.get(SECURITY);
    assert.equal((await owner.post(`${SECURITY}/2fa/disable`, { password: TEST_PASSWORD })).statusCode, 303);
    assert.equal(await twoFactorState(owner), 'off');
  });

  test('turning two-factor on needs the password again: the code alone, or with a wrong password, leaves it off, and five wrong ones lock it', async (t) => {
    const ctx = await build(t);
    const owner = await member(ctx, 'owner');
    const secret = await startTwoFactor(owner);
    const alone = await confirmTwoFactor(ctx, owner, secret, null);
    assert.equal(alone.statusCode, 400, alone.body);
    assert.match(alone.body, /The password is not right\./);
    assert.doesNotMatch(alone.body, /data-test="recovery-codes"/);
    for (let i = 0; i < 4; i++) {
      await owner.get(SECURITY);
      const wrong = await confirmTwoFactor(ctx, owner, secret, `not the password ${i}`);
      assert.equal(wrong.statusCode, 400, wrong.body);
    }
    await owner.get(SECURITY);
    assertLockedOut(await confirmTwoFactor(ctx, owner, secret, TEST_PASSWORD));
    assert.equal(await twoFactorState(owner), 'pending');

    ctx.clock.advance(WINDOW_PASSED_MS);
    await owner.get(SECURITY);
    assert.match((await confirmTwoFactor(ctx, owner, secret, TEST_PASSWORD)).body, /data-test="recovery-codes"/);
    assert.equal(await twoFactorState(owner), 'on');
  });

  test('turning two-factor on signs out every other session of the account, and keeps this one', async (t) => {
    const ctx = await build(t);
    const owner = await member(ctx, 'owner');
    const elsewhere = new DashboardClient(ctx.app, ORIGIN, uniqueAddress());
    assert.equal((await signIn(elsewhere, owner.email)).statusCode, 303);
    assert.equal((await elsewhere.get('/dashboard')).statusCode, 200);
    const secret = await startTwoFactor(owner);
    const on = await confirmTwoFactor(ctx, owner, secret, TEST_PASSWORD);
    assert.match(on.body, /data-test="others-signed-out"/);
    const after = await elsewhere.get('/dashboard');
    assert.equal(after.statusCode, 303, 'the session opened with the password alone ended');
    assert.match(String(after.headers.location), /^\/dashboard\/login/);
    assert.equal((await owner.get('/dashboard')).statusCode, 200);
  });

  test('twenty failures from one address, over several accounts, lock that address on the two-factor form too, while the account still works from elsewhere', async (t) => {
    const ctx = await build(t);
    const guesser = new DashboardClient(ctx.app, ORIGIN, uniqueAddress());
    for (let n = 0; n < 5; n++) {
      const email = uniqueEmail(`target${n}`);
      await acceptInvitation(ctx, email, 'viewer');
      for (let i = 0; i < 4; i++) {
        assert.equal((await signIn(guesser, email, `not the password ${i}`)).statusCode, 401);
      }
    }
    const owner = await member(ctx, 'owner');
    const home = owner.address;
    const secret = await startTwoFactor(owner);
    owner.address = guesser.address;
    await owner.get(SECURITY);
    assertLockedOut(await confirmTwoFactor(ctx, owner, secret, TEST_PASSWORD));
    owner.address = home;
    await owner.get(SECURITY);
    assert.match((await confirmTwoFactor(ctx, owner, secret, TEST_PASSWORD)).body, /data-test="recovery-codes"/);
  });
});
