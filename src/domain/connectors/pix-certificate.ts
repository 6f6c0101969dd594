import type { PixClientCertificate } from './pix-connector.ts';

/** Why the files given for an API Pix client certificate cannot be one; each caller words it for its own fields. */
export type PixCertificateProblem =
  /** No certificate file, or an empty one. */
  | 'certificate_missing'
  /** A PEM certificate without its private key. */
  | 'key_missing'
  /** The key given with a PEM certificate is not a PEM private key. */
  | 'key_not_pem';

/**
 * The client certificate from the files a PSP hands out: a PEM certificate (chain) with its PEM
 * private key, or one PKCS#12 bundle (DER, the .p12/.pfx several PSPs use) with its passphrase.
 * What the files hold is told by their bytes, never their names. Whether Node can load them,
 * and whether the PSP accepts them, the token request tells.
 */
export function pixCertificateOf(files: {
  certificate: Buffer;
  key: string | null;
  passphrase: string | null;
}): { ok: true; certificate: PixClientCertificate } | { ok: false; problem: PixCertificateProblem } {
  if (files.certificate.length === 0) {
    return { ok: false, problem: 'certificate_missing' };
  }
  const text = files.certificate.toString('utf8');
  if (!text.includes('-----BEGIN')) {
    return {
      ok: true,
      certificate: { kind: 'pkcs12', pfxBase64: files.certificate.toString('base64'), passphrase: files.passphrase },
    };
  }
  if (files.key === null || files.key.trim() === '') {
    return { ok: false, problem: 'key_missing' };
  }
  if (!files.key.includes('-----BEGIN') || !/PRIVATE KEY-----/.test(files.key)) {
    return { ok: false, problem: 'key_not_pem' };
  }
  return { ok: true, certificate: { kind: 'pem', cert: text, key: files.key } };
}
