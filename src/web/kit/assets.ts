import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** A static file served from memory under a name that changes with its content (cached for a year). */
export type Asset = { path: string; body: string; contentType: string };

function load(file: string, extension: 'css' | 'js', contentType: string): Asset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url), 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/checkout/assets/checkout.${hash}.${extension}`, body, contentType };
}

let loaded: { css: Asset; js: Asset } | null = null;

/**
 * Our own stylesheet and script: no third-party asset is ever loaded by a checkout page. Read
 * and hashed once per process, however many page plugins ask.
 */
export function loadAssets(): { css: Asset; js: Asset } {
  loaded ??= {
    css: load('payer.css', 'css', 'text/css; charset=utf-8'),
    js: load('payer.js', 'js', 'text/javascript; charset=utf-8'),
  };
  return loaded;
}
