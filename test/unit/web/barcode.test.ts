import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { encodeItf, itfModules, renderItfBarcodeSvg } from '../../../src/web/kit/barcode.ts';

// Interleaved 2 of 5 character set as printed in barcode reader manuals (e.g. "Appendix F –
// Interleaved 2 of 5 specifications": 1 = wide, 0 = narrow; start 0000, stop 100) and in the
// iBarcoder ITF specification page. Written out here independently of the module under test.
const REFERENCE_TABLE: Readonly<Record<string, string>> = {
  '0': '00110',
  '1': '10001',
  '2': '01001',
  '3': '11000',
  '4': '00101',
  '5': '10100',
  '6': '01100',
  '7': '00011',
  '8': '10010',
  '9': '01010',
};

/** Reads digits back out of a module string (1 = bar, 0 = space) by measuring element widths. */
function decodeModules(modules: string, wideRatio: number): string {
  const widths: number[] = [];
  let at = 0;
  while (at < modules.length) {
    let end = at;
    while (end < modules.length && modules.charAt(end) === modules.charAt(at)) {
      end++;
    }
    widths.push(end - at);
    at = end;
  }
  const flags = widths.map((w) => {
    assert.ok(w === 1 || w === wideRatio, `unexpected element width ${w}`);
    return w === 1 ? '0' : '1';
  });
  assert.equal(flags.slice(0, 4).join(''), '0000', 'start pattern');
  assert.equal(flags.slice(-3).join(''), '100', 'stop pattern');
  const data = flags.slice(4, -3);
  assert.equal(data.length % 10, 0);
  const byPattern = new Map(Object.entries(REFERENCE_TABLE).map(([digit, pattern]) => [pattern, digit]));
  let digits = '';
  for (let i = 0; i < data.length; i += 10) {
    const group = data.slice(i, i + 10);
    const bars = group.filter((_, k) => k % 2 === 0).join('');
    const spaces = group.filter((_, k) => k % 2 === 1).join('');
    digits += (byPattern.get(bars) ?? '?') + (byPattern.get(spaces) ?? '?');
  }
  return digits;
}

describe('encodeItf', () => {
  test('interleaves each digit pair from the standard character table', () => {
    // "12": 1 = 10001 in the bars, 2 = 01001 in the spaces.
    assert.equal(encodeItf('12'), 'NNNN' + 'WNNWNNNNWW' + 'WNN');
    for (const [a, pa] of Object.entries(REFERENCE_TABLE)) {
      for (const [b, pb] of Object.entries(REFERENCE_TABLE)) {
        let expected = '';
        for (let k = 0; k < 5; k++) {
          expected += (pa.charAt(k) === '1' ? 'W' : 'N') + (pb.charAt(k) === '1' ? 'W' : 'N');
        }
        assert.equal(encodeItf(a + b), `NNNN${expected}WNN`, a + b);
      }
    }
  });

  test('pads an odd number of digits with a leading zero', () => {
    assert.equal(encodeItf('5'), encodeItf('05'));
    assert.equal(encodeItf('123'), encodeItf('0123'));
  });

  test('rejects anything but digits', () => {
    assert.throws(() => encodeItf(''), RangeError);
    assert.throws(() => encodeItf('12a4'), RangeError);
  });
});

describe('itfModules', () => {
  test('matches the barcodeisland.com worked example for "12345670" at a 2:1 ratio', () => {
    // barcodeisland.com/int2of5.phtml: start 1010, then "12" encodes as 11010010101100.
    const modules = itfModules('12345670', 2);
    assert.ok(modules.startsWith('1010' + '11010010101100'), modules);
    // Stop: wide bar, narrow space, narrow bar.
    assert.ok(modules.endsWith('1101'), modules);
  });

  test('uses three modules for wide elements by default', () => {
    assert.equal(itfModules('12'), '1010' + '111010001010111000' + '11101');
  });

  test('decodes back to the original digits with the reference table', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,40}$/), fc.constantFrom(2, 3), (digits, ratio) => {
        const even = digits.length % 2 === 0 ? digits : `0${digits}`;
        assert.equal(decodeModules(itfModules(digits, ratio), ratio), even);
      }),
    );
  });
});

describe('renderItfBarcodeSvg', () => {
  const value = '000000000000042220260131000000001234';

  test('draws two start bars, five bars per digit pair and two stop bars', () => {
    const svg = renderItfBarcodeSvg(value);
    const group = /<g fill="#000">(.*)<\/g>/.exec(svg)?.[1] ?? '';
    const bars = group.match(/<rect /g) ?? [];
    assert.equal(bars.length, 2 + 5 * (value.length / 2) + 2);
  });

  test('sizes the image to the symbol plus ten-module quiet zones', () => {
    const svg = renderItfBarcodeSvg(value);
    // 4 start + 9 per digit + 5 stop modules, plus 2 × 10 quiet modules, at 2 px each.
    const expectedWidth = (4 + 9 * value.length + 5 + 20) * 2;
    assert.match(svg, new RegExp(`^<svg [^>]*width="${expectedWidth}"`));
    const firstBar = /<g fill="#000"><rect x="(\d+)"/.exec(svg)?.[1];
    assert.equal(firstBar, '20');
  });

  test('carries the bars the module string describes', () => {
    const svg = renderItfBarcodeSvg(value);
    let rebuilt = '0'.repeat(itfModules(value).length);
    for (const m of svg.matchAll(/<rect x="(\d+)" y="0" width="(\d+)"/g)) {
      const start = Number(m[1]) / 2 - 10;
      const width = Number(m[2]) / 2;
      rebuilt = rebuilt.slice(0, start) + '1'.repeat(width) + rebuilt.slice(start + width);
    }
    assert.equal(rebuilt, itfModules(value));
  });

  test('is well-formed and labelled for assistive technology', () => {
    const svg = renderItfBarcodeSvg(value);
    assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
    assert.ok(svg.endsWith('</svg>'));
    assert.match(svg, /role="img"/);
    assert.match(svg, new RegExp(`aria-label="Barcode ${value}"`));
    assert.match(svg, new RegExp(`<title>Barcode ${value}</title>`));
    const stack: string[] = [];
    for (const [tag = '', closing, name = '', selfClosing] of svg.matchAll(/<(\/)?([a-z]+)[^>]*?(\/)?>/g)) {
      if (selfClosing !== undefined) {
        continue;
      }
      if (closing !== undefined) {
        assert.equal(stack.pop(), name, `unbalanced ${tag}`);
      } else {
        stack.push(name);
      }
    }
    assert.deepEqual(stack, []);
  });

  test('pads odd-length values like the encoder does', () => {
    assert.equal(renderItfBarcodeSvg('123'), renderItfBarcodeSvg('0123'));
  });
});
