import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { create } from 'qrcode';
import { qrPngDataUrl, qrSvg } from '../../../src/web/kit/qr.ts';

// The BR Code example from BACEN's "Manual de Padrões para Iniciação do Pix".
const PIX_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

function pngSize(dataUrl: string): { width: number; height: number } {
  const png = Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
  // PNG signature, then the IHDR chunk: length (4), type (4), width (4), height (4).
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.subarray(12, 16).toString('ascii'), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('qrSvg', () => {
  test('returns a labelled SVG document', async () => {
    const svg = await qrSvg(PIX_EXAMPLE);
    assert.match(svg, /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg, /role="img"/);
    assert.match(svg, /aria-label="QR code"/);
    assert.ok(svg.trimEnd().endsWith('</svg>'));
  });

  test('uses error correction M and a two-module margin', async () => {
    const modulesAt = (level: 'L' | 'M') => create(PIX_EXAMPLE, { errorCorrectionLevel: level }).modules.size;
    // This payload needs a larger symbol at M than at L, so the size shows which level was used.
    assert.notEqual(modulesAt('M'), modulesAt('L'));
    const side = modulesAt('M') + 2 * 2;
    assert.match(await qrSvg(PIX_EXAMPLE), new RegExp(`viewBox="0 0 ${side} ${side}"`));
  });

  test('gives the same output for the same input and different output for different input', async () => {
    assert.equal(await qrSvg(PIX_EXAMPLE), await qrSvg(PIX_EXAMPLE));
    assert.notEqual(await qrSvg(PIX_EXAMPLE), await qrSvg(`${PIX_EXAMPLE} `));
  });

  test('escapes a custom accessible label', async () => {
    assert.match(await qrSvg('x', 'Pay "R$ 10" <now>'), /aria-label="Pay &quot;R\$ 10&quot; &lt;now>"/);
  });

  test('rejects empty text', async () => {
    await assert.rejects(qrSvg(''), RangeError);
  });
});

describe('qrPngDataUrl', () => {
  test('returns a square PNG as a base64 data URL', async () => {
    const url = await qrPngDataUrl(PIX_EXAMPLE);
    assert.match(url, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const { width, height } = pngSize(url);
    assert.equal(width, height);
    assert.ok(width > 0);
  });

  test('gives the same output for the same input', async () => {
    assert.equal(await qrPngDataUrl(PIX_EXAMPLE), await qrPngDataUrl(PIX_EXAMPLE));
  });

  test('rejects empty text', async () => {
    await assert.rejects(qrPngDataUrl(''), RangeError);
  });
});
