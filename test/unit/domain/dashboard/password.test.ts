import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { commonPasswords } from '../../../../src/domain/dashboard/common-passwords.ts';

const COMMON_PASSWORDS = commonPasswords();

import {
  DUMMY_PASSWORD_HASH,
  hashPassword,
  needsRehash,
  type PasswordProblem,
  passwordProblem,
  SCRYPT_PARAMS,
  verifyAgainstDummy,
  verifyPassword,
} from '../../../../src/domain/dashboard/password.ts';

const EMAIL = 'jonathan.appleseed@example.com';

describe('passwordProblem', () => {
  const table: ReadonlyArray<[label: string, password: string, expected: PasswordProblem | null]> = [
    ['refuses 11 characters', 'kx7!rq2#mw9', 'too_short'],
    ['accepts 12 characters', 'kx7!rq2#mw9z', null],
    ['counts code points, not UTF-16 units: 11 emoji are too short', '🦊🐙🦉🐝🦋🐢🦔🐳🦜🐌🦩', 'too_short'],
    ['counts code points, not UTF-16 units: 12 emoji are enough', '🦊🐙🦉🐝🦋🐢🦔🐳🦜🐌🦩🦦', null],
    ['accepts 256 characters', 'ab'.repeat(128), null],
    ['refuses 257 characters', `${'ab'.repeat(128)}c`, 'too_long'],
    ['refuses a common long password', 'password1234', 'common'],
    ['refuses a common password whatever its case', 'QwertyUIOP123', 'common'],
    ['refuses a common all-digit password', '123456789012', 'common'],
    ['refuses a common password written in full-width characters', 'ｐａｓｓｗｏｒｄ１２３４', 'common'],
    ['refuses a common password with surrounding spaces', ' password1234 ', 'common'],
    ['refuses the e-mail address', EMAIL, 'contains_email'],
    ['refuses the e-mail address whatever its case', EMAIL.toUpperCase(), 'contains_email'],
    ['refuses a password containing the e-mail address', `my ${EMAIL} pass`, 'contains_email'],
    ['refuses the local part of the e-mail address', 'Jonathan.Appleseed', 'contains_email'],
    ['accepts the local part with more added', 'jonathan.appleseed-and-tea', null],
    ['accepts a passphrase', 'correct horse battery staple', null],
  ];

  for (const [label, password, expected] of table) {
    test(label, () => {
      assert.equal(passwordProblem(password, { email: EMAIL }), expected);
    });
  }

  test('checks length before anything else', () => {
    assert.equal(passwordProblem('password', { email: 'password@example.com' }), 'too_short');
  });

  test('skips the e-mail rule when no e-mail is given', () => {
    assert.equal(passwordProblem('kx7!rq2#mw9z'), null);
    assert.equal(passwordProblem('kx7!rq2#mw9z', { email: '' }), null);
    assert.equal(passwordProblem('kx7!rq2#mw9z', { email: null }), null);
  });
});

describe('COMMON_PASSWORDS', () => {
  test('holds thousands of lower-case entries without white space', () => {
    assert.ok(COMMON_PASSWORDS.size >= 1_000 && COMMON_PASSWORDS.size <= 12_000, String(COMMON_PASSWORDS.size));
    for (const entry of COMMON_PASSWORDS) {
      assert.equal(entry, entry.toLowerCase());
      assert.match(entry, /^\S+$/);
    }
  });

  test('includes the best-known short and long ones', () => {
    for (const entry of ['123456', 'password', 'qwerty', 'iloveyou', 'password1234', 'qwertyuiop123', '123456789012']) {
      assert.ok(COMMON_PASSWORDS.has(entry), entry);
    }
  });
});

describe('hashPassword and verifyPassword', () => {
  test('writes scrypt$N$r$p$salt$hash with today’s parameters, a 16-byte salt and a 32-byte key', async () => {
    const stored = await hashPassword('kx7!rq2#mw9z');
    const [name, n, r, p, salt = '', key = '', ...rest] = stored.split('$');
    assert.deepEqual([name, Number(n), Number(r), Number(p), rest], ['scrypt', 2 ** 15, 8, 1, []]);
    assert.deepEqual([SCRYPT_PARAMS.N, SCRYPT_PARAMS.r, SCRYPT_PARAMS.p], [2 ** 15, 8, 1]);
    assert.equal(Buffer.from(salt, 'base64').length, 16);
    assert.equal(Buffer.from(key, 'base64').length, 32);
  });

  test('verifies the password it hashed', async () => {
    const stored = await hashPassword('kx7!rq2#mw9z');
    assert.equal(await verifyPassword('kx7!rq2#mw9z', stored), true);
  });

  test('refuses a wrong password', async () => {
    const stored = await hashPassword('kx7!rq2#mw9z');
    assert.equal(await verifyPassword('kx7!rq2#mw9Z', stored), false);
    assert.equal(await verifyPassword('', stored), false);
  });

  test('salts every hash, so the same password hashes differently', async () => {
    const [a, b] = await Promise.all([hashPassword('same password!'), hashPassword('same password!')]);
    assert.notEqual(a, b);
  });

  test('treats composed and decomposed accents as the same password', async () => {
    const stored = await hashPassword('crème brûlée au café'.normalize('NFC'));
    assert.equal(await verifyPassword('crème brûlée au café'.normalize('NFD'), stored), true);
  });

  test('verifies a hash made with other scrypt parameters, and says it needs rehashing', async () => {
    const salt = Buffer.alloc(16, 7);
    const key = scryptSync('kx7!rq2#mw9z', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const older = `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
    assert.equal(await verifyPassword('kx7!rq2#mw9z', older), true);
    assert.equal(needsRehash(older), true);
    assert.equal(needsRehash(await hashPassword('kx7!rq2#mw9z')), false);
  });

  test('answers false, without throwing, for malformed stored strings', async () => {
    const good = await hashPassword('kx7!rq2#mw9z');
    const [, , , , salt = '', key = ''] = good.split('$');
    const malformed: unknown[] = [
      '',
      'scrypt',
      'scrypt$$$$$',
      `bcrypt$32768$8$1$${salt}$${key}`,
      `scrypt$32768$8$1$${salt}`,
      `${good}$`,
      `scrypt$32767$8$1$${salt}$${key}`, // N not a power of two
      `scrypt$032768$8$1$${salt}$${key}`, // not canonical
      `scrypt$1073741824$8$1$${salt}$${key}`, // would need 1 TiB
      `scrypt$32768$0$1$${salt}$${key}`,
      `scrypt$32768$8$0$${salt}$${key}`,
      `scrypt$32768$8$1.5$${salt}$${key}`,
      `scrypt$32768$8$1$${salt}$${key.slice(0, 8)}`, // key too short
      `scrypt$32768$8$1$AAAA$${key}`, // salt too short
      `scrypt$32768$8$1$${salt}$${key.replace(/.$/, '*')}`,
      `scrypt$32768$8$1$${salt}$ ${key}`,
      `$2b$12$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234`,
      null,
      undefined,
      42,
    ];
    for (const stored of malformed) {
      assert.equal(await verifyPassword('kx7!rq2#mw9z', stored as string), false, String(stored));
      assert.equal(needsRehash(stored as string), true, String(stored));
    }
  });

  test('verifies any password it hashed (property, few runs: scrypt is slow on purpose)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), async (password) => {
        assert.equal(await verifyPassword(password, await hashPassword(password)), true);
      }),
      { numRuns: 5, seed: Number(process.env.FUZZ_SEED ?? 20_260_115) },
    );
  });
});

describe('the dummy hash for unknown e-mail addresses', () => {
  test('uses today’s scrypt parameters, so it costs as much as a real verification', () => {
    assert.equal(needsRehash(DUMMY_PASSWORD_HASH), false);
  });

  test('verifyAgainstDummy answers false whatever the password', async () => {
    assert.equal(await verifyAgainstDummy('kx7!rq2#mw9z'), false);
    assert.equal(await verifyAgainstDummy(''), false);
  });
});
