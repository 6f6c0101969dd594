/**
 * Interleaved 2 of 5 (ITF) barcodes, drawn as SVG for the cash voucher a payer prints or shows
 * at a cash point.
 */

import { escapeHtml } from './html.ts';

// Interleaved 2 of 5 character set: five elements per digit, W = wide, N = narrow.
const ITF_DIGITS: readonly string[] = [
  'NNWWN',
  'WNNNW',
  'NWNNW',
  'WWNNN',
  'NNWNW',
  'WNWNN',
  'NWWNN',
  'NNNWW',
  'WNNWN',
  'NWNWN',
];
const ITF_START = 'NNNN';
const ITF_STOP = 'WNN';
const QUIET_ZONE_MODULES = 10;
const MODULE_PX = 2;
const BAR_HEIGHT_PX = 100;

function evenDigits(value: string): string {
  if (!/^[0-9]+$/.test(value)) {
    throw new RangeError('ITF can only encode a non-empty string of digits');
  }
  // ITF encodes digits in pairs; a leading zero keeps the value while making the count even.
  return value.length % 2 === 0 ? value : `0${value}`;
}

/**
 * Element widths of an Interleaved 2 of 5 symbol, start and stop included, as a string of `N`
 * (narrow) and `W` (wide). Elements alternate bar, space, bar, … beginning with a bar; in each
 * digit pair the first digit is carried by the bars and the second by the spaces between them.
 * An odd number of digits is padded with a leading zero.
 */
export function encodeItf(value: string): string {
  const digits = evenDigits(value);
  let out = ITF_START;
  for (let i = 0; i < digits.length; i += 2) {
    const bars = ITF_DIGITS[Number(digits.charAt(i))] ?? '';
    const spaces = ITF_DIGITS[Number(digits.charAt(i + 1))] ?? '';
    for (let k = 0; k < 5; k++) {
      out += bars.charAt(k) + spaces.charAt(k);
    }
  }
  return out + ITF_STOP;
}

/**
 * The symbol as modules: `1` for bar, `0` for space, a wide element taking `wideRatio` modules.
 * No quiet zone is included.
 */
export function itfModules(value: string, wideRatio = 3): string {
  if (!Number.isInteger(wideRatio) || wideRatio < 2 || wideRatio > 3) {
    throw new RangeError('wideRatio must be 2 or 3');
  }
  let modules = '';
  let bar = true;
  for (const element of encodeItf(value)) {
    modules += (bar ? '1' : '0').repeat(element === 'W' ? wideRatio : 1);
    bar = !bar;
  }
  return modules;
}

/**
 * Renders an Interleaved 2 of 5 barcode (narrow:wide 1:3, 10-module quiet zones) as a standalone
 * SVG document fragment. The digits are exposed through `role="img"`, `aria-label` and `<title>`
 * so screen readers can read the code aloud, after `word` in the page's language.
 *
 * @throws RangeError when `value` is not a non-empty string of digits.
 */
export function renderItfBarcodeSvg(value: string, word = 'Barcode'): string {
  const digits = evenDigits(value);
  const modules = itfModules(digits, 3);
  const widthPx = (modules.length + 2 * QUIET_ZONE_MODULES) * MODULE_PX;

  const bars: string[] = [];
  let at = 0;
  while (at < modules.length) {
    let end = at;
    while (end < modules.length && modules.charAt(end) === modules.charAt(at)) {
      end++;
    }
    if (modules.charAt(at) === '1') {
      const x = (QUIET_ZONE_MODULES + at) * MODULE_PX;
      bars.push(`<rect x="${x}" y="0" width="${(end - at) * MODULE_PX}" height="${BAR_HEIGHT_PX}"/>`);
    }
    at = end;
  }

  // The word is ours (the page's texts), escaped all the same: it goes into an attribute and an element.
  const label = `${escapeHtml(word)} ${digits}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${widthPx}" height="${BAR_HEIGHT_PX}" viewBox="0 0 ${widthPx} ${BAR_HEIGHT_PX}" role="img" aria-label="${label}" shape-rendering="crispEdges">`,
    `<title>${label}</title>`,
    `<rect width="${widthPx}" height="${BAR_HEIGHT_PX}" fill="#fff"/>`,
    `<g fill="#000">${bars.join('')}</g>`,
    '</svg>',
  ].join('');
}
