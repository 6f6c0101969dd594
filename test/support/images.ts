import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/** CRC-32 as PNG uses it (independent of the one under test). */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) {
      crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
    }
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real RGB PNG of `width` × `height`: a solid colour, or random noise (`noise`), which does
 * not compress, for a file of a chosen size. `header` overrides the IHDR's stated size.
 */
export function png(
  width: number,
  height: number,
  options: { noise?: boolean; rgb?: [number, number, number]; header?: { width: number; height: number } } = {},
): Buffer {
  const [r, g, b] = options.rgb ?? [11, 87, 208];
  const row = (y: number) => {
    const pixels = options.noise ? randomBytes(width * 3) : Buffer.alloc(width * 3);
    if (!options.noise) {
      for (let x = 0; x < width; x++) {
        const light = x > width / 4 && x < (3 * width) / 4 && y > height / 4 && y < (3 * height) / 4;
        pixels.set(light ? [255, 255, 255] : [r, g, b], x * 3);
      }
    }
    return Buffer.concat([Buffer.from([0]), pixels]);
  };
  const raw = Buffer.concat(Array.from({ length: height }, (_, y) => row(y)));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(options.header?.width ?? width, 0);
  ihdr.writeUInt32BE(options.header?.height ?? height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An 8 × 4 baseline JPEG (made once by Chromium's encoder, its colour profile dropped). */
export const TINY_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAEAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAiEAABAQYHAAAAAAAAAAAAAAAAFQUREhQWMiEkJjEzdIL/xAAVAQEBAAAAAAAAAAAAAAAAAAAGB//EABoRAAICAwAAAAAAAAAAAAAAAAABA0IEcXL/2gAMAwEAAhEDEQA/AJqo9LIiMxu/K5u+Pkf52twABScW/TB89dI//9k=',
  'base64',
);

/** A 1 × 1 GIF. */
export const TINY_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** An SVG that would run a script if it were ever served as SVG from our origin. */
export const SCRIPTED_SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>',
);

/** An HTML page, as someone would upload it renamed to logo.png. */
export const HTML_PAGE = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
);
