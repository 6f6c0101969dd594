import { toString as renderToString, toDataURL } from 'qrcode';

// Level M restores up to ~15% of damaged modules: enough for a code shown on a phone screen or
// printed on a receipt, while keeping long Pix payloads at a scannable module size.
const ERROR_CORRECTION = 'M';
// Two modules of quiet zone instead of the spec's four: checkout pages already frame the code with
// white space, and every mainstream scanner reads it.
const MARGIN = 2;

function assertText(text: string): void {
  if (text.length === 0) {
    throw new RangeError('QR text must not be empty');
  }
}

/**
 * Renders text (a Pix BR Code, a BIP21 or EIP-681 URI, …) as an SVG QR code, error correction M,
 * 2-module margin. The same text always gives the same SVG.
 *
 * @param label - Accessible name for the image; defaults to "QR code".
 * @throws RangeError when `text` is empty.
 */
export async function qrSvg(text: string, label = 'QR code'): Promise<string> {
  assertText(text);
  const svg = await renderToString(text, { type: 'svg', errorCorrectionLevel: ERROR_CORRECTION, margin: MARGIN });
  const escaped = label.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return svg.replace('<svg ', `<svg role="img" aria-label="${escaped}" `);
}

/**
 * Renders text as a PNG QR code in a `data:image/png;base64,…` URL, error correction M, 2-module margin.
 *
 * @throws RangeError when `text` is empty.
 */
export async function qrPngDataUrl(text: string): Promise<string> {
  assertText(text);
  return toDataURL(text, { type: 'image/png', errorCorrectionLevel: ERROR_CORRECTION, margin: MARGIN });
}
