import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pixCertificateOf } from '../../../src/domain/connectors/pix-certificate.ts';

// Shapes only: whether Node can load the files, and whether the PSP accepts them, the token
// request tells (test/http/pix-dashboard.test.ts, test/http/pix-connect.process.test.ts).
const PEM_CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const PEM_KEY = '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n';
const P12 = Buffer.from([0x30, 0x82, 0x04, 0x10, 0x02, 0x01, 0x03]);

test('a PEM certificate goes with its PEM private key, whatever the files are called', () => {
  assert.deepEqual(pixCertificateOf({ certificate: Buffer.from(PEM_CERT), key: PEM_KEY, passphrase: null }), {
    ok: true,
    certificate: { kind: 'pem', cert: PEM_CERT, key: PEM_KEY },
  });
  const ecKey = PEM_KEY.replaceAll('PRIVATE KEY', 'EC PRIVATE KEY');
  assert.equal(pixCertificateOf({ certificate: Buffer.from(PEM_CERT), key: ecKey, passphrase: null }).ok, true);
});

test('anything else is a PKCS#12 bundle, kept whole with its passphrase (none when not given)', () => {
  assert.deepEqual(pixCertificateOf({ certificate: P12, key: null, passphrase: 'senha' }), {
    ok: true,
    certificate: { kind: 'pkcs12', pfxBase64: P12.toString('base64'), passphrase: 'senha' },
  });
  // A key given beside a bundle is not used: the bundle holds its own.
  const read = pixCertificateOf({ certificate: P12, key: PEM_KEY, passphrase: null });
  assert.deepEqual(read.ok && read.certificate, {
    kind: 'pkcs12',
    pfxBase64: P12.toString('base64'),
    passphrase: null,
  });
});

test('no certificate, a PEM certificate without its key, or a key that is not a PEM private key is named', () => {
  const problem = (certificate: Buffer, key: string | null) => {
    const read = pixCertificateOf({ certificate, key, passphrase: null });
    return read.ok ? 'read' : read.problem;
  };
  assert.equal(problem(Buffer.alloc(0), PEM_KEY), 'certificate_missing');
  assert.equal(problem(Buffer.from(PEM_CERT), null), 'key_missing');
  assert.equal(problem(Buffer.from(PEM_CERT), '  \n'), 'key_missing');
  assert.equal(problem(Buffer.from(PEM_CERT), PEM_CERT), 'key_not_pem');
  assert.equal(problem(Buffer.from(PEM_CERT), 'not a key'), 'key_not_pem');
});
