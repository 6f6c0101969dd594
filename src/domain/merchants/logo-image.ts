/**
 * Logo checks made on the bytes alone: the file's name and the type the browser claimed are
 * never trusted. A PNG must be whole (signature, IHDR first, every chunk inside the file with
 * a correct CRC, image data, IEND last and nothing after it); a JPEG must start with SOI, have
 * well-formed segments up to a frame header (SOF) and its scan, and end with EOI. Both must
 * have a sane size. Pure: no decoding library, no I/O.
 */

/** The largest logo accepted, in bytes. */
export const MAX_LOGO_BYTES = 256 * 1024;
/** The largest width or height accepted, in pixels. */
export const MAX_LOGO_SIDE = 2048;

export type LogoType = 'image/png' | 'image/jpeg';
export type LogoFacts = { contentType: LogoType; width: number; height: number };
export type LogoCheck = { ok: true; facts: LogoFacts } | { ok: false; message: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const NOT_PNG_OR_JPEG = 'The logo must be a PNG or JPEG image';

const refuse = (message: string): LogoCheck => ({ ok: false, message });

/** Checks an uploaded logo and reads its type and size from its own header. */
export function inspectLogo(bytes: Uint8Array): LogoCheck {
  if (bytes.length === 0) {
    return refuse('Choose an image file for the logo.');
  }
  if (bytes.length > MAX_LOGO_BYTES) {
    return refuse(
      `The logo is larger than ${MAX_LOGO_BYTES / 1024} KB. Make it smaller (a logo rarely needs more than 512 × 512 pixels) and try again.`,
    );
  }
  if (startsWith(bytes, PNG_SIGNATURE)) {
    return inspectPng(bytes);
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return inspectJpeg(bytes);
  }
  const what = sniffOther(bytes);
  return refuse(
    `${NOT_PNG_OR_JPEG}${what ? `; this file is ${what}` : ', and this file is neither'}, whatever its name says.`,
  );
}

/** Names a few formats people try, so the message says what was sent. */
function sniffOther(bytes: Uint8Array): string | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
  if (head.startsWith('gif87a') || head.startsWith('gif89a')) {
    return 'a GIF image';
  }
  if (head.startsWith('riff') && head.slice(8, 12) === 'webp') {
    return 'a WebP image';
  }
  if (head.includes('<svg')) {
    return 'an SVG image (SVG can carry scripts, so it is not accepted)';
  }
  if (
    head.startsWith('<!doctype html') ||
    head.startsWith('<html') ||
    head.includes('<script') ||
    head.startsWith('<')
  ) {
    return 'a web page or other text, not an image';
  }
  if (head.startsWith('bm')) {
    return 'a BMP image';
  }
  return null;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

const u32 = (b: Uint8Array, at: number): number =>
  (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;
const u16 = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);

function sideProblem(width: number, height: number): string | null {
  if (width < 1 || height < 1) {
    return 'The logo image has no width or height.';
  }
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE) {
    return `The logo is ${width} × ${height} pixels; at most ${MAX_LOGO_SIDE} × ${MAX_LOGO_SIDE} is accepted.`;
  }
  return null;
}

/** Bit depths each PNG colour type allows (PNG specification, table 11.1). */
const PNG_DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

const BROKEN_PNG = 'The logo is not a complete PNG file (it may have been cut short while saving or copying).';

function inspectPng(b: Uint8Array): LogoCheck {
  let at = PNG_SIGNATURE.length;
  let width = 0;
  let height = 0;
  let sawData = false;
  let first = true;
  while (at + 12 <= b.length) {
    const length = u32(b, at);
    const type = String.fromCharCode(b[at + 4] ?? 0, b[at + 5] ?? 0, b[at + 6] ?? 0, b[at + 7] ?? 0);
    if (!/^[A-Za-z]{4}$/.test(type) || length > b.length || at + 12 + length > b.length) {
      return refuse(BROKEN_PNG);
    }
    if (crc32(b, at + 4, at + 8 + length) !== u32(b, at + 8 + length)) {
      return refuse(BROKEN_PNG);
    }
    const data = at + 8;
    if (first) {
      if (type !== 'IHDR' || length !== 13) {
        return refuse(BROKEN_PNG);
      }
      width = u32(b, data);
      height = u32(b, data + 4);
      const depth = b[data + 8] ?? 0;
      const colour = b[data + 9] ?? 0;
      if (!PNG_DEPTHS[colour]?.includes(depth) || b[data + 10] !== 0 || b[data + 11] !== 0 || (b[data + 12] ?? 2) > 1) {
        return refuse(BROKEN_PNG);
      }
      const side = sideProblem(width, height);
      if (side) {
        return refuse(side);
      }
      first = false;
    } else if (type === 'IHDR') {
      return refuse(BROKEN_PNG);
    }
    if (type === 'IDAT') {
      sawData = true;
    }
    at += 12 + length;
    if (type === 'IEND') {
      // Nothing may follow IEND: trailing bytes are how image/HTML polyglots are made.
      return at === b.length && sawData && length === 0
        ? { ok: true, facts: { contentType: 'image/png', width, height } }
        : refuse(BROKEN_PNG);
    }
  }
  return refuse(BROKEN_PNG);
}

const BROKEN_JPEG = 'The logo is not a complete JPEG file (it may have been cut short while saving or copying).';

/** Start-of-frame markers (baseline, extended, progressive, lossless; Huffman or arithmetic). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function inspectJpeg(b: Uint8Array): LogoCheck {
  let at = 2;
  let frame: { width: number; height: number } | null = null;
  while (at < b.length) {
    if (b[at] !== 0xff) {
      return refuse(BROKEN_JPEG);
    }
    // Any number of 0xFF fill bytes may precede a marker.
    while (b[at] === 0xff) {
      at++;
    }
    const marker = b[at];
    at++;
    if (marker === undefined || marker === 0x00 || marker === 0xd8 || marker === 0xd9) {
      return refuse(BROKEN_JPEG);
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      continue; // markers without a length
    }
    const length = u16(b, at);
    if (length < 2 || at + length > b.length) {
      return refuse(BROKEN_JPEG);
    }
    if (SOF.has(marker)) {
      const components = b[at + 7] ?? 0;
      if (length < 8 || frame !== null || ![1, 3, 4].includes(components) || length !== 8 + 3 * components) {
        return refuse(BROKEN_JPEG);
      }
      frame = { height: u16(b, at + 3), width: u16(b, at + 5) };
      const side = sideProblem(frame.width, frame.height);
      if (side) {
        return refuse(side);
      }
    }
    at += length;
    if (marker === 0xda) {
      // The entropy-coded scans follow; the file must end with EOI.
      if (frame === null || at >= b.length - 2 || b[b.length - 2] !== 0xff || b[b.length - 1] !== 0xd9) {
        return refuse(BROKEN_JPEG);
      }
      return { ok: true, facts: { contentType: 'image/jpeg', ...frame } };
    }
  }
  return refuse(BROKEN_JPEG);
}

let crcTable: Uint32Array | null = null;

/** CRC-32 (ISO 3309, as PNG uses it) of `b[from..to)`. */
function crc32(b: Uint8Array, from: number, to: number): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) {
        c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      }
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = from; i < to; i++) {
    crc = (crcTable[(crc ^ (b[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A stored logo with its bytes. */
export type LogoFile = {
  merchantId: string;
  sha256: string;
  contentType: LogoType;
  width: number;
  height: number;
  bytes: Uint8Array;
  createdAt: number;
};
