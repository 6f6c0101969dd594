import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { after, before, beforeEach, describe, test } from 'node:test';
import { parsePix } from 'pix-utils';
import { ConnectorError } from '../../../src/domain/connectors/card-connector.ts';
import type { PixAccess } from '../../../src/domain/connectors/pix-connector.ts';
import { ApiPixClient } from '../../../src/providers/pix/api-pix/api-pix.client.ts';
import { ApiPixConnector } from '../../../src/providers/pix/api-pix/api-pix.connector.ts';
import { fromValor, toValor } from '../../../src/providers/pix/api-pix/api-pix.mapping.ts';
import { resolveUrls } from '../../../src/providers/pix/api-pix/api-pix.profiles.ts';
import type { PixProfileName, StandInClient } from '../../support/pix-psp-stand-in.ts';
import { PixPspStandIn, usePixStandIn } from '../../support/pix-psp-stand-in.ts';
import { ThrowawayCa } from '../../support/throwaway-ca.ts';

/*
 * The API Pix connector against the PSP stand-in (mutual TLS, every request and answer checked
 * against the Central Bank's published description): tokens, certificates, charges, refunds,
 * the PSP's failures, and what each profile changes.
 */

const TXID = 'cobroAAAAAAAAAAAAAAAAAAAAAA1';

function accessFor(standIn: PixPspStandIn, client: StandInClient, profile: PixProfileName = 'bcb'): PixAccess {
  const urls = resolveUrls(profile, standIn.baseUrl, null);
  return {
    ...urls,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    certificate: { kind: 'pem', cert: client.certificate.cert, key: client.certificate.key },
    ca: standIn.ca.cert,
    profile,
  };
}

async function rejectsWith(promise: Promise<unknown>, kind: ConnectorError['kind'], message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: Error) => {
    assert.ok(error instanceof ConnectorError, String(error));
    assert.equal(error.kind, kind, error.message);
    assert.match(error.message, message);
    return true;
  });
}

describe('API Pix connector with the PSP stand-in (bcb profile)', () => {
  const standIns = usePixStandIn('bcb');
  let standIn: PixPspStandIn;
  let client: StandInClient;
  beforeEach(async () => {
    standIn = standIns();
    standIn.tokenLifetimeSeconds = 3600;
    client = await standIn.addClient();
  });

  test('a charge is a PUT /cob/{txid}; the same txid again answers the same charge, never a second one', async () => {
    const connector = new ApiPixConnector();
    const access = accessFor(standIn, client);
    const input = {
      txid: TXID.replace('1', '2'),
      expiresInSeconds: 600,
      amountMinor: 1690n,
      pixKey: 'pagamentos@loja.com.br',
      payerMessage: 'Camiseta azul',
    };
    const first = await connector.createCharge(access, input);
    const again = await connector.createCharge(access, input);
    assert.equal(first.status, 'ATIVA');
    assert.equal(first.outcome, 'WAIT');
    assert.equal(first.amountMinor, 1690n);
    assert.equal(again.pixCopiaECola, first.pixCopiaECola);
    assert.equal([...standIn.charges.keys()].filter((t) => t === input.txid).length, 1);
    const sent = standIn.charge(input.txid).request;
    assert.deepEqual(sent, {
      calendario: { expiracao: 600 },
      valor: { original: '16.90' },
      chave: 'pagamentos@loja.com.br',
      solicitacaoPagador: 'Camiseta azul',
    });
    // The PSP's code, read by an independent parser: a dynamic BR Code pointing at this charge.
    const parsed = parsePix(first.pixCopiaECola ?? '');
    assert.ok(!('error' in parsed && parsed.error), JSON.stringify(parsed));
    assert.equal((parsed as { type: string }).type, 'DYNAMIC');
    assert.equal(`https://${(parsed as { url: string }).url}`, standIn.charge(input.txid).location);
  });

  test('the token is asked for once and reused, then renewed before it expires and when the PSP drops it mid-run', async () => {
    let now = Date.now();
    const connector = new ApiPixConnector({ now: () => now, tokenMarginMs: 30_000 });
    const access = accessFor(standIn, client);
    standIn.tokenLifetimeSeconds = 120;
    const before = standIn.tokensIssued;
    const charge = await connector.createCharge(access, {
      txid: TXID.replace('1', '3'),
      expiresInSeconds: 60,
      amountMinor: 100n,
      pixKey: '+5511999990000',
      payerMessage: 'x',
    });
    await connector.getCharge(access, charge.txid);
    await connector.getCharge(access, charge.txid);
    assert.equal(standIn.tokensIssued - before, 1, 'one token for three calls');
    const tokenRequest = standIn.requests.find((r) => r.operation === 'token');
    assert.equal(tokenRequest?.body, 'grant_type=client_credentials');

    // 100 s later the token has 20 s left, inside the 30 s margin: a new one is asked for.
    now += 100_000;
    await connector.getCharge(access, charge.txid);
    assert.equal(standIn.tokensIssued - before, 2);

    // The PSP drops every token early: the call is answered 401, a new token is taken, the call succeeds.
    standIn.expireTokens();
    const after = await connector.getCharge(access, charge.txid);
    assert.equal(after.status, 'ATIVA');
    assert.equal(standIn.tokensIssued - before, 3);
  });

  test('refused credentials and a certificate of another client fail the token check with a clear message', async () => {
    const connector = new ApiPixConnector();
    await rejectsWith(
      connector.checkToken({ ...accessFor(standIn, client), clientSecret: 'wrong' }),
      'AUTH',
      /refused the client credentials .*HTTP 401: client authentication failed; invalid_client/,
    );
    const other = await standIn.addClient();
    await rejectsWith(
      connector.checkToken({
        ...accessFor(standIn, client),
        certificate: { kind: 'pem', cert: other.certificate.cert, key: other.certificate.key },
      }),
      'AUTH',
      /refused the client credentials/,
    );
  });

  test('a client certificate the PSP did not issue is refused in the handshake', async () => {
    const stranger = await ThrowawayCa.create('Not the PSP');
    try {
      const foreign = await stranger.client(client.clientId);
      await rejectsWith(
        new ApiPixConnector().checkToken({
          ...accessFor(standIn, client),
          certificate: { kind: 'pem', cert: foreign.cert, key: foreign.key },
        }),
        'AUTH',
        /refused the TLS connection/,
      );
    } finally {
      await stranger.dispose();
    }
    // And a client with no certificate at all does not get past the handshake either.
    const refused = await new Promise<string>((resolve) => {
      const req = httpsRequest(`${standIn.url}/api/cob/${TXID}`, { ca: standIn.ca.cert, agent: false }, (res) =>
        resolve(`answered ${res.statusCode}`),
      );
      req.on('error', (error: Error & { code?: string }) => resolve(error.code ?? error.message));
      req.end();
    });
    assert.doesNotMatch(refused, /^answered/);
  });

  test('a PSP whose certificate is not trusted is named, with the --ca hint; http:// is refused without a call', async () => {
    const requests = standIn.requests.length;
    await rejectsWith(
      new ApiPixConnector().checkToken({ ...accessFor(standIn, client), ca: null }),
      'AUTH',
      /server certificate at 127\.0\.0\.1:\d+ is not trusted .*--ca/,
    );
    await rejectsWith(
      new ApiPixConnector().checkToken({
        ...accessFor(standIn, client),
        tokenUrl: standIn.url.replace('https:', 'http:'),
      }),
      'REJECTED',
      /must use https:\/\//,
    );
    assert.equal(standIn.requests.length, requests);
    assert.throws(() => resolveUrls('bcb', 'http://127.0.0.1:1/api', null), /must be https:\/\//);
  });

  test('a PKCS#12 bundle with its passphrase works as the client certificate', async () => {
    const bundle = await standIn.ca.pkcs12(client.certificate, 'segredo-do-p12');
    const access: PixAccess = {
      ...accessFor(standIn, client),
      certificate: { kind: 'pkcs12', pfxBase64: bundle.bytes.toString('base64'), passphrase: 'segredo-do-p12' },
    };
    await new ApiPixConnector().checkToken(access);
    await rejectsWith(
      new ApiPixConnector().checkToken({
        ...access,
        certificate: { kind: 'pkcs12', pfxBase64: bundle.bytes.toString('base64'), passphrase: 'wrong' },
      }),
      'AUTH',
      /client certificate or key cannot be used/,
    );
  });

  test('problem details become a message naming each violated property', async () => {
    const connector = new ApiPixConnector();
    const access = accessFor(standIn, client);
    const txid = TXID.replace('1', '4');
    await connector.createCharge(access, {
      txid,
      expiresInSeconds: 60,
      amountMinor: 500n,
      pixKey: 'k@loja.com.br',
      payerMessage: 'x',
    });
    const pix = standIn.pay(txid);
    await rejectsWith(
      connector.refund(access, { endToEndId: String(pix.endToEndId), refundId: 'r1', amountMinor: 501n }),
      'REJECTED',
      /HTTP 400: Requisicao Invalida; the refunds would exceed the pix; valor: the refunds would exceed the pix/,
    );
    const refund = await connector.refund(access, {
      endToEndId: String(pix.endToEndId),
      refundId: 'r2',
      amountMinor: 500n,
    });
    assert.equal(refund.outcome, 'REFUNDED');
    const charge = await connector.getCharge(access, txid);
    assert.equal(charge.outcome, 'PAID');
    assert.equal(charge.payments[0]?.refunds[0]?.status, 'DEVOLVIDO');
  });

  test('a PSP that is down (503), never answers, or answers too much fails as UNAVAILABLE within the time limit', async () => {
    const connector = new ApiPixConnector({ timeoutMs: 300, maxResponseBytes: 64 * 1024 });
    const access = accessFor(standIn, client);
    standIn.fail(/^\/cob\//, 503);
    await rejectsWith(connector.getCharge(access, TXID), 'UNAVAILABLE', /HTTP 503: Servico Indisponivel/);
    standIn.hang(/^\/cob\//);
    const started = Date.now();
    await rejectsWith(connector.getCharge(access, TXID), 'UNAVAILABLE', /did not answer GET .* within 300 ms/);
    assert.ok(Date.now() - started < 2000);
    standIn.oversize(/^\/cob\//);
    await rejectsWith(connector.getCharge(access, TXID), 'UNAVAILABLE', /over 65536 bytes/);
    await rejectsWith(connector.getCharge(access, TXID), 'NOT_FOUND', /no such object/);
  });

  test('the stand-in catches a request the specification does not allow (so the tests above would fail on one)', async () => {
    const client2 = new ApiPixClient();
    const access = accessFor(standIn, client);
    await client2.call(access, 'PUT', `/cob/${TXID.replace('1', '7')}`, {
      calendario: { expiracao: 60 },
      valor: { original: '1.00' },
      chave: 'k@loja.com.br',
      desconto: '0.10',
    });
    const wrong = await client2.call(access, 'PUT', `/cob/${TXID.replace('1', '8')}`, {
      calendario: { expiracao: 60 },
      valor: { original: '1,00' },
      chave: 'k@loja.com.br',
    });
    assert.equal(wrong.status, 400);
    assert.equal(standIn.violations.length, 2, standIn.violations.join('\n'));
    assert.match(
      standIn.violations[0] ?? '',
      /^PUT \/cob\/\{txid\}: members the specification does not have: desconto$/,
    );
    assert.match(standIn.violations[1] ?? '', /^PUT \/cob\/\{txid\}: \/valor\/original must match pattern/);
    standIn.violations.length = 0;
  });

  test('the webhook is registered, and removed, per PIX key', async () => {
    const connector = new ApiPixConnector();
    const access = accessFor(standIn, client);
    await connector.registerWebhook(access, 'k@loja.com.br', 'https://cobro.example/connectors/pix/webhooks/abc');
    assert.equal(
      standIn.webhooks.get('k@loja.com.br')?.webhookUrl,
      'https://cobro.example/connectors/pix/webhooks/abc',
    );
    await connector.removeWebhook(access, 'k@loja.com.br');
    assert.equal(standIn.webhooks.has('k@loja.com.br'), false);
    // Already gone counts as removed.
    await connector.removeWebhook(access, 'k@loja.com.br');
  });
});

for (const profile of ['efi', 'inter'] as const) {
  describe(`API Pix connector, ${profile} profile`, () => {
    let standIn: PixPspStandIn;
    before(async () => {
      standIn = await PixPspStandIn.start({ profile });
    });
    after(async () => {
      await standIn.close();
      await standIn.ca.dispose();
    });

    test(`${profile}: the API under its path, the token asked its way, a charge made and read`, async () => {
      const client = await standIn.addClient();
      const access = accessFor(standIn, client, profile);
      assert.equal(access.baseUrl, `${standIn.url}${profile === 'efi' ? '/v2' : '/pix/v2'}`);
      assert.equal(access.tokenUrl, `${standIn.url}${profile === 'efi' ? '/oauth/token' : '/oauth/v2/token'}`);
      const connector = new ApiPixConnector();
      const charge = await connector.createCharge(access, {
        txid: TXID,
        expiresInSeconds: 300,
        amountMinor: 1234n,
        pixKey: '12345678000195',
        payerMessage: 'Pedido',
      });
      assert.equal(charge.amountMinor, 1234n);
      assert.deepEqual(standIn.violations, []);
    });

    test(`${profile}: the notification body is read the way this PSP sends it`, async () => {
      const connector = new ApiPixConnector();
      const client = await standIn.addClient();
      await connector.createCharge(accessFor(standIn, client, profile), {
        txid: TXID.replace('1', '9'),
        expiresInSeconds: 300,
        amountMinor: 1234n,
        pixKey: '12345678000195',
        payerMessage: 'Pedido',
      });
      standIn.pay(TXID.replace('1', '9'));
      const note = standIn.notification('https://cobro.example/connectors/pix/webhooks/abc', [TXID.replace('1', '9')]);
      const body: unknown = JSON.parse(note.body);
      assert.equal(Array.isArray(body), profile === 'inter');
      assert.equal(note.path.endsWith('/pix'), profile !== 'inter');
      assert.deepEqual(
        connector.readNotification(profile, body)?.entries.map((e) => e.txid),
        [TXID.replace('1', '9')],
      );
      assert.equal(connector.readNotification(profile, { evento: 'teste_webhook' }), null);
    });
  });
}

test('valor: centavos as the specification writes them, and back', () => {
  assert.equal(toValor(1690n), '16.90');
  assert.equal(toValor(5n), '0.05');
  assert.equal(toValor(0n), '0.00');
  assert.equal(fromValor('16.90'), 1690n);
  assert.equal(fromValor('16.9'), null);
  assert.equal(fromValor(16.9), null);
  assert.throws(() => toValor(10n ** 12n), RangeError);
});
