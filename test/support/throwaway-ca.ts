import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/*
 * A certificate authority made for one test process with the machine's `openssl`, and the
 * certificates it issues: a server certificate for 127.0.0.1 and client certificates (PEM, and
 * PKCS#12 on demand). Keys are P-256, everything lives two days, the files in a temporary
 * folder removed by `dispose()`. Nothing here is trusted by anything but the tests that use it.
 */

export type IssuedCertificate = {
  cert: string;
  key: string;
  /** SHA-256 of the DER certificate, as Node's `getPeerCertificate().fingerprint256` writes it. */
  fingerprint256: string;
  /** Paths of the PEM files (the command line reads files). */
  certFile: string;
  keyFile: string;
};

export class ThrowawayCa {
  private serial = 0;

  private constructor(
    readonly dir: string,
    readonly cert: string,
    readonly certFile: string,
    private readonly keyFile: string,
  ) {}

  static async create(name = 'Cobro test CA'): Promise<ThrowawayCa> {
    const dir = await mkdtemp(join(tmpdir(), 'cobro-ca-'));
    const keyFile = join(dir, 'ca.key');
    const certFile = join(dir, 'ca.crt');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    return new ThrowawayCa(dir, await readFile(certFile, 'utf8'), certFile, keyFile);
  }

  /** A server certificate for 127.0.0.1 and localhost. */
  server(name = 'psp-stand-in'): Promise<IssuedCertificate> {
    return this.issue(name, [
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      'extendedKeyUsage=serverAuth',
      'keyUsage=critical,digitalSignature',
    ]);
  }

  /** A client certificate (what a PSP hands a merchant for its API credentials). */
  client(name: string): Promise<IssuedCertificate> {
    return this.issue(name, ['extendedKeyUsage=clientAuth', 'keyUsage=critical,digitalSignature']);
  }

  /** The certificate and key as one PKCS#12 bundle (the .p12/.pfx several PSPs hand out), with a passphrase. */
  async pkcs12(issued: IssuedCertificate, passphrase: string): Promise<{ file: string; bytes: Buffer }> {
    const file = join(this.dir, `bundle-${++this.serial}.p12`);
    await run('openssl', [
      'pkcs12',
      '-export',
      '-inkey',
      issued.keyFile,
      '-in',
      issued.certFile,
      '-out',
      file,
      '-passout',
      `pass:${passphrase}`,
    ]);
    return { file, bytes: await readFile(file) };
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  private async issue(name: string, extensions: string[]): Promise<IssuedCertificate> {
    const n = ++this.serial;
    const keyFile = join(this.dir, `cert-${n}.key`);
    const csrFile = join(this.dir, `cert-${n}.csr`);
    const certFile = join(this.dir, `cert-${n}.crt`);
    const extFile = join(this.dir, `cert-${n}.ext`);
    await run('openssl', [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      csrFile,
      '-subj',
      `/CN=${name}`,
    ]);
    await writeFile(extFile, `${extensions.join('\n')}\n`);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      csrFile,
      '-CA',
      this.certFile,
      '-CAkey',
      this.keyFile,
      '-set_serial',
      String(1000 + n),
      '-days',
      '2',
      '-extfile',
      extFile,
      '-out',
      certFile,
    ]);
    const { stdout } = await run('openssl', ['x509', '-in', certFile, '-noout', '-fingerprint', '-sha256']);
    const fingerprint256 = stdout.trim().replace(/^.*=/, '');
    return {
      cert: await readFile(certFile, 'utf8'),
      key: await readFile(keyFile, 'utf8'),
      fingerprint256,
      certFile,
      keyFile,
    };
  }
}
