import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parsePix } from 'pix-utils';
import type { EmvField, PixBrCodeInput } from '../../../src/providers/pix/br-code.ts';
import {
  buildPixBrCode,
  detectPixKeyType,
  foldToAscii,
  formatMinorAmount,
  parseEmvTlv,
  verifyBrCodeCrc,
} from '../../../src/providers/pix/br-code.ts';
import { crc16Ccitt } from '../../../src/providers/pix/crc16.ts';

// Published payloads, none of them produced by this code base:
// - BACEN, "Manual de Padrões para Iniciação do Pix" (BR Code manual), static example with an EVP key.
//   The same string (CRC 1D3D) is reproduced in the tests of many public Pix libraries.
const BACEN_MANUAL_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
// - github.com/thalesog/pix-utils, tests/emvCodes.ts (STATIC_TEST_EMV, built there from name
//   "Thales Ogliari", city "SÃO MIGUÉL DO O", key "thalesog@me.com", info "Pedido 123", amount 10).
const PIX_UTILS_STATIC =
  '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***63044367';
// - Same file: STATIC_TEST_NO_VALUE_ELEMENT_EMV and DYNAMIC_TEST_EMV (a payload-URL code, field 25).
const PIX_UTILS_NO_AMOUNT =
  '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 1235204000053039865802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***63042C6B';
const PIX_UTILS_DYNAMIC =
  '00020126740014br.gov.bcb.pix2552payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e875204000053039865802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***63040C64';

const PUBLISHED = [BACEN_MANUAL_EXAMPLE, PIX_UTILS_STATIC, PIX_UTILS_NO_AMOUNT, PIX_UTILS_DYNAMIC];

function fieldMap(fields: readonly EmvField[]): Map<string, string> {
  return new Map(fields.map((f) => [f.id, f.value]));
}

function field(fields: Map<string, string>, id: string): string {
  const value = fields.get(id);
  assert.ok(value !== undefined, `field ${id} is missing`);
  return value;
}

const base: PixBrCodeInput = {
  pixKey: '123e4567-e12b-12d1-a456-426655440000',
  amountMinor: 12345n,
  merchantName: 'Fulano de Tal',
  merchantCity: 'BRASILIA',
  txid: 'PEDIDO123',
  description: 'Pedido 123',
};

describe('crc16Ccitt', () => {
  test('returns the CRC-16/CCITT-FALSE catalogue check value 29B1 for "123456789"', () => {
    assert.equal(crc16Ccitt('123456789'), '29B1');
  });

  test('reproduces the CRC printed in every published BR Code example', () => {
    for (const payload of PUBLISHED) {
      assert.equal(crc16Ccitt(payload.slice(0, -4)), payload.slice(-4), payload);
    }
  });

  test('pads short results to four hex digits', () => {
    assert.match(crc16Ccitt(''), /^[0-9A-F]{4}$/);
    assert.equal(crc16Ccitt(''), 'FFFF');
  });
});

describe('verifyBrCodeCrc', () => {
  test('accepts the published examples', () => {
    for (const payload of PUBLISHED) {
      assert.equal(verifyBrCodeCrc(payload), true, payload);
    }
  });

  test('rejects a payload whose amount was altered after the CRC was computed', () => {
    const tampered = PIX_UTILS_STATIC.replace('10.00', '90.00');
    assert.equal(verifyBrCodeCrc(tampered), false);
  });

  test('rejects text that is not a TLV payload ending in field 63', () => {
    assert.equal(verifyBrCodeCrc('hello'), false);
    assert.equal(verifyBrCodeCrc(PIX_UTILS_STATIC.slice(0, -8)), false);
  });
});

describe('parseEmvTlv', () => {
  test('decodes the BACEN manual example into its data objects and nested templates', () => {
    const top = fieldMap(parseEmvTlv(BACEN_MANUAL_EXAMPLE));
    assert.deepEqual([...top.keys()], ['00', '26', '52', '53', '58', '59', '60', '62', '63']);
    const account = fieldMap(parseEmvTlv(field(top, '26')));
    assert.equal(field(account, '00'), 'br.gov.bcb.pix');
    assert.equal(field(account, '01'), '123e4567-e12b-12d1-a456-426655440000');
    assert.equal(field(fieldMap(parseEmvTlv(field(top, '62'))), '05'), '***');
    assert.equal(field(top, '59'), 'Fulano de Tal');
  });

  test('throws a RangeError on a truncated data object', () => {
    assert.throws(() => parseEmvTlv('0005abc'), RangeError);
    assert.throws(() => parseEmvTlv('0x02ab'), RangeError);
  });
});

describe('buildPixBrCode', () => {
  test('matches a payload assembled by hand from the manual and checksummed with Python binascii.crc_hqx', () => {
    // Expected text was assembled field by field in a Python script (not from this module) and its
    // CRC computed with binascii.crc_hqx(data, 0xFFFF), an independent CRC-16/CCITT-FALSE.
    assert.equal(
      buildPixBrCode(base),
      '00020101021226720014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400000210Pedido 1235204000053039865406123.455802BR5913Fulano de Tal6008BRASILIA62130509PEDIDO12363043C2C',
    );
  });

  test('folds accents and cuts name to 25 and city to 15 characters like the hand-built reference', () => {
    assert.equal(
      buildPixBrCode({
        pixKey: '+5511987654321',
        amountMinor: 1n,
        merchantName: 'João da Silva Comércio de Alimentos',
        merchantCity: 'São João del-Rei',
        txid: 'a1B2c3D4e5F6g7H8i9J0k1L2m',
      }),
      '00020101021226360014br.gov.bcb.pix0114+551198765432152040000530398654040.015802BR5925Joao da Silva Comercio de6015Sao Joao del-Re62290525a1B2c3D4e5F6g7H8i9J0k1L2m6304C1A1',
    );
  });

  test('encodes merchant fields exactly like the pix-utils reference for the same inputs', () => {
    const ours = fieldMap(
      parseEmvTlv(
        buildPixBrCode({
          pixKey: 'thalesog@me.com',
          amountMinor: 1000n,
          merchantName: 'Thales Ogliari',
          merchantCity: 'SÃO MIGUÉL DO O',
          txid: 'Pedido123',
          description: 'Pedido 123',
        }),
      ),
    );
    const reference = fieldMap(parseEmvTlv(PIX_UTILS_STATIC));
    for (const id of ['00', '26', '52', '53', '54', '58', '59', '60']) {
      assert.equal(field(ours, id), field(reference, id), `field ${id}`);
    }
  });

  test('is read back by the pix-utils parser: CRC, key, amount, txid and merchant as given', () => {
    const code = buildPixBrCode({
      pixKey: 'pagamentos@loja.com.br',
      amountMinor: 1690n,
      merchantName: 'Loja da Ana',
      merchantCity: 'Sao Paulo',
      txid: 'N40dHHngtwPHjotdU8u4rQ',
    });
    const parsed = parsePix(code) as Record<string, unknown>;
    assert.ok(!parsed.error, JSON.stringify(parsed));
    assert.equal(parsed.type, 'STATIC');
    assert.equal(parsed.pixKey, 'pagamentos@loja.com.br');
    assert.equal(parsed.transactionAmount, 16.9);
    assert.equal(parsed.txid, 'N40dHHngtwPHjotdU8u4rQ');
    assert.equal(parsed.merchantName, 'Loja da Ana');
    assert.equal(parsed.merchantCity, 'Sao Paulo');
    const altered = code.replace('16.90', '16.80');
    assert.ok((parsePix(altered) as { error?: boolean }).error, 'a changed amount breaks the CRC');
  });

  test('encodes the key and merchant fields exactly like the BACEN manual example', () => {
    const ours = fieldMap(parseEmvTlv(buildPixBrCode({ ...base, description: undefined })));
    const reference = fieldMap(parseEmvTlv(BACEN_MANUAL_EXAMPLE));
    for (const id of ['00', '26', '52', '53', '58', '59', '60']) {
      assert.equal(field(ours, id), field(reference, id), `field ${id}`);
    }
  });

  test('marks the code as single use and puts the txid in field 62-05', () => {
    const top = fieldMap(parseEmvTlv(buildPixBrCode(base)));
    assert.equal(field(top, '01'), '12');
    assert.equal(field(fieldMap(parseEmvTlv(field(top, '62'))), '05'), 'PEDIDO123');
  });

  test('writes amounts from the integer number of centavos', () => {
    const amountOf = (amountMinor: bigint): string =>
      field(fieldMap(parseEmvTlv(buildPixBrCode({ ...base, amountMinor }))), '54');
    assert.equal(amountOf(1n), '0.01');
    assert.equal(amountOf(10n), '0.10');
    assert.equal(amountOf(100n), '1.00');
    assert.equal(amountOf(999_999_999_999n), '9999999999.99');
  });

  test('rejects amounts that are zero, negative or too large for field 54', () => {
    assert.throws(() => buildPixBrCode({ ...base, amountMinor: 0n }), /amountMinor must be greater than zero/);
    assert.throws(() => buildPixBrCode({ ...base, amountMinor: -5n }), RangeError);
    assert.throws(() => buildPixBrCode({ ...base, amountMinor: 1_000_000_000_000n }), /amountMinor exceeds/);
  });

  test('rejects a txid that is empty, too long or not alphanumeric', () => {
    for (const txid of ['', 'a'.repeat(26), 'PED-123', '***', 'pedido 1', 'pedidoç']) {
      assert.throws(() => buildPixBrCode({ ...base, txid }), /txid must be 1 to 25 characters/, txid);
    }
    assert.doesNotThrow(() => buildPixBrCode({ ...base, txid: 'a'.repeat(25) }));
  });

  test('rejects a pix key that is not written in a DICT format', () => {
    for (const pixKey of [
      '',
      '123.456.789-09',
      'Ana@Example.com',
      '11987654321 ',
      '123E4567-E12B-12D1-A456-426655440000',
    ]) {
      assert.throws(() => buildPixBrCode({ ...base, pixKey }), /pixKey is not a DICT key/, pixKey);
    }
  });

  test('rejects a key and description too long for field 26', () => {
    assert.throws(() => buildPixBrCode({ ...base, description: 'x'.repeat(60) }), /field 26/);
  });

  test('rejects names and cities that are blank or cannot be written in ASCII', () => {
    assert.throws(() => buildPixBrCode({ ...base, merchantName: '   ' }), /merchantName must not be empty/);
    assert.throws(() => buildPixBrCode({ ...base, merchantCity: '東京' }), /merchantCity contains characters/);
  });

  test('produces payloads that parse back to their inputs and whose CRC verifies, for any valid input', () => {
    const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
    const pixKey = fc.oneof(
      fc.uuid().map((u) => u.toLowerCase()),
      digits(11),
      digits(14),
      fc.stringMatching(/^\+[1-9][0-9]{1,14}$/),
      fc.stringMatching(/^[a-z0-9._-]{1,20}@[a-z0-9]{1,10}\.[a-z]{2,5}$/),
    );
    const input = fc.record({
      pixKey,
      amountMinor: fc.bigInt({ min: 1n, max: 999_999_999_999n }),
      merchantName: fc.stringMatching(/^[A-Za-z0-9]{1,5}( [A-Za-z0-9]{1,5}){0,3}$/),
      merchantCity: fc.stringMatching(/^[A-Za-z]{1,4}( [A-Za-z]{1,4}){0,2}$/),
      txid: fc.stringMatching(/^[A-Za-z0-9]{1,25}$/),
      description: fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,10}( [A-Za-z0-9]{1,5}){0,2}$/), { nil: undefined }),
    });
    fc.assert(
      fc.property(input, (i) => {
        const payload = buildPixBrCode(i);
        assert.equal(verifyBrCodeCrc(payload), true);
        const top = fieldMap(parseEmvTlv(payload));
        const account = fieldMap(parseEmvTlv(field(top, '26')));
        assert.equal(field(account, '00'), 'br.gov.bcb.pix');
        assert.equal(field(account, '01'), i.pixKey);
        assert.equal(account.get('02'), i.description);
        const [whole = '', cents = ''] = field(top, '54').split('.');
        assert.equal(BigInt(whole) * 100n + BigInt(cents), i.amountMinor);
        assert.equal(cents.length, 2);
        assert.equal(field(top, '53'), '986');
        assert.equal(field(top, '58'), 'BR');
        assert.equal(field(top, '59'), i.merchantName);
        assert.equal(field(top, '60'), i.merchantCity);
        assert.equal(field(fieldMap(parseEmvTlv(field(top, '62'))), '05'), i.txid);
        assert.ok(payload.endsWith(`6304${crc16Ccitt(payload.slice(0, -4))}`));
      }),
      { numRuns: 300 },
    );
  });
});

describe('helpers', () => {
  test('foldToAscii strips Portuguese diacritics', () => {
    assert.equal(foldToAscii('AÇÚCAR Ñandu São José àèìòù âêîôû ãõ'), 'ACUCAR Nandu Sao Jose aeiou aeiou ao');
  });

  test('formatMinorAmount writes two decimals without floating point', () => {
    assert.equal(formatMinorAmount(1234n), '12.34');
    assert.equal(formatMinorAmount(5n), '0.05');
    assert.equal(formatMinorAmount(90071992547409930n), '900719925474099.30');
  });

  test('detectPixKeyType recognises each DICT key format', () => {
    assert.equal(detectPixKeyType('12345678909'), 'cpf');
    assert.equal(detectPixKeyType('12345678000195'), 'cnpj');
    assert.equal(detectPixKeyType('+5511987654321'), 'phone');
    assert.equal(detectPixKeyType('thalesog@me.com'), 'email');
    assert.equal(detectPixKeyType('123e4567-e12b-12d1-a456-426655440000'), 'evp');
    assert.equal(detectPixKeyType('not a key'), null);
  });
});
