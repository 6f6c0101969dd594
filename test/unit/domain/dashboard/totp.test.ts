import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { base32nopad } from '@scure/base';
import {
  generateTotpSecret,
  hotpCode,
  otpauthUri,
  totpCode,
  totpStep,
  verifyTotp,
} from '../../../../src/domain/dashboard/totp.ts';

// The RFCs' shared test secret: the ASCII bytes of "12345678901234567890".
const RFC_KEY = new TextEncoder().encode('12345678901234567890');
const RFC_SECRET = base32nopad.encode(RFC_KEY);

describe('HOTP (RFC 4226)', () => {
  test('gives the Appendix D codes for counters 0 to 9', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expected.forEach((code, counter) => {
      assert.equal(hotpCode(RFC_KEY, counter), code, `counter ${counter}`);
    });
  });
});

describe('TOTP (RFC 6238)', () => {
  const vectors: ReadonlyArray<[seconds: number, code: string]> = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];

  test('the shared test secret encodes to the well-known base32 string', () => {
    assert.equal(RFC_SECRET, 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });

  for (const [seconds, code] of vectors) {
    test(`gives the Appendix B SHA-1 code ${code} at T = ${seconds} s with 8 digits`, () => {
      assert.equal(totpCode(RFC_SECRET, seconds * 1000, 30, 8), code);
    });

    test(`gives the last six digits of ${code} at T = ${seconds} s by default`, () => {
      assert.equal(totpCode(RFC_SECRET, seconds * 1000), code.slice(-6));
    });
  }

  test('reads the secret regardless of case, spaces and padding', () => {
    const at = 1234567890 * 1000;
    const loose = `${RFC_SECRET.toLowerCase().replace(/(.{4})/g, '$1 ')}====`;
    assert.equal(totpCode(loose, at), totpCode(RFC_SECRET, at));
  });

  test('throws on a secret that is not base32', () => {
    assert.throws(() => totpCode('not base32 at all!', 0), TypeError);
    assert.throws(() => totpCode('', 0), TypeError);
  });
});

describe('generateTotpSecret', () => {
  test('makes 20 random bytes as 32 unpadded base32 characters', () => {
    const secret = generateTotpSecret();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.equal(base32nopad.decode(secret).length, 20);
  });

  test('makes a different secret each time', () => {
    const secrets = new Set(Array.from({ length: 50 }, () => generateTotpSecret()));
    assert.equal(secrets.size, 50);
  });
});

describe('verifyTotp', () => {
  const secret = RFC_SECRET;
  // The middle of a step, so "one step earlier" is unambiguous.
  const now = 1_700_000_000_000 - (1_700_000_000_000 % 30_000) + 15_000;
  const current = totpStep(now);
  const codeAt = (step: number) => totpCode(secret, step * 30_000);

  test('accepts the current code and returns its step', () => {
    assert.deepEqual(verifyTotp(secret, codeAt(current), now), { ok: true, step: current });
  });

  test('accepts the codes one step before and one step after', () => {
    assert.deepEqual(verifyTotp(secret, codeAt(current - 1), now), { ok: true, step: current - 1 });
    assert.deepEqual(verifyTotp(secret, codeAt(current + 1), now), { ok: true, step: current + 1 });
  });

  test('refuses the codes two steps away', () => {
    assert.deepEqual(verifyTotp(secret, codeAt(current - 2), now), { ok: false });
    assert.deepEqual(verifyTotp(secret, codeAt(current + 2), now), { ok: false });
  });

  test('accepts only the current step when the window is 0', () => {
    assert.deepEqual(verifyTotp(secret, codeAt(current), now, { window: 0 }), { ok: true, step: current });
    assert.deepEqual(verifyTotp(secret, codeAt(current - 1), now, { window: 0 }), { ok: false });
  });

  test('refuses a code whose step was already used (replay)', () => {
    const first = verifyTotp(secret, codeAt(current), now);
    assert.ok(first.ok);
    assert.deepEqual(verifyTotp(secret, codeAt(current), now, { lastUsedStep: first.step }), { ok: false });
  });

  test('refuses an older code once a later step was used', () => {
    assert.deepEqual(verifyTotp(secret, codeAt(current - 1), now, { lastUsedStep: current }), { ok: false });
  });

  test('accepts a later code after an earlier step was used', () => {
    assert.deepEqual(verifyTotp(secret, codeAt(current), now, { lastUsedStep: current - 1 }), {
      ok: true,
      step: current,
    });
  });

  test('refuses a wrong code', () => {
    const right = codeAt(current);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    assert.deepEqual(verifyTotp(secret, wrong, now), { ok: false });
  });

  test('refuses codes that are not exactly six digits', () => {
    const right = codeAt(current);
    for (const code of ['', right.slice(1), `${right}0`, ` ${right}`, right.replace(/\d$/, 'x'), '１２３４５６']) {
      assert.deepEqual(verifyTotp(secret, code, now), { ok: false }, JSON.stringify(code));
    }
  });

  test('throws on a window that is not a small non-negative integer', () => {
    assert.throws(() => verifyTotp(secret, codeAt(current), now, { window: -1 }), RangeError);
    assert.throws(() => verifyTotp(secret, codeAt(current), now, { window: 1.5 }), RangeError);
  });
});

describe('otpauthUri', () => {
  test('follows the Key Uri Format with issuer prefix and parameter', () => {
    const uri = otpauthUri({ secret: 'JBSWY3DPEHPK3PXP', accountName: 'alice@example.com', issuer: 'Cobro' });
    assert.equal(
      uri,
      'otpauth://totp/Cobro:alice%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Cobro&algorithm=SHA1&digits=6&period=30',
    );
  });

  test('URL-encodes the label and issuer so a parser reads them back', () => {
    const uri = otpauthUri({
      secret: 'JBSWY3DPEHPK3PXP',
      accountName: 'ana maría+test@example.com',
      issuer: 'Cobro Pay',
    });
    const url = new URL(uri);
    assert.equal(url.protocol, 'otpauth:');
    assert.equal(url.host, 'totp');
    assert.equal(decodeURIComponent(url.pathname.slice(1)), 'Cobro Pay:ana maría+test@example.com');
    assert.equal(url.searchParams.get('issuer'), 'Cobro Pay');
    assert.equal(url.searchParams.get('secret'), 'JBSWY3DPEHPK3PXP');
    assert.ok(uri.startsWith('otpauth://totp/Cobro%20Pay:ana%20mar%C3%ADa%2Btest%40example.com?'), uri);
  });

  test('defaults the issuer to Cobro', () => {
    const url = new URL(otpauthUri({ secret: 'JBSWY3DPEHPK3PXP', accountName: 'bob@example.com' }));
    assert.equal(url.searchParams.get('issuer'), 'Cobro');
  });

  test('refuses a colon in the issuer or the account name', () => {
    assert.throws(() => otpauthUri({ secret: 'A', accountName: 'a:b', issuer: 'Cobro' }), RangeError);
    assert.throws(() => otpauthUri({ secret: 'A', accountName: 'a@b.c', issuer: 'Co:bro' }), RangeError);
  });
});
