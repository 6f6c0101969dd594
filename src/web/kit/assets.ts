import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** A static file served from memory under a name that changes with its content (cached for a year). */
export type Asset = { path: string; body: string; contentType: string };

function load(file: string, extension: 'css' | 'js', contentType: string, name = 'checkout'): Asset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url), 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/checkout/assets/${name}.${hash}.${extension}`, body, contentType };
}

let loaded: { css: Asset; js: Asset; stripeCard: Asset } | null = null;

/**
 * Our own stylesheet and scripts: no third-party asset is loaded by a checkout page, except
 * Stripe.js on the card step of a checkout whose cards go through Stripe (it must come from
 * js.stripe.com). Read and hashed once per process, however many page plugins ask.
 */
export function loadAssets(): { css: Asset; js: Asset; stripeCard: Asset } {
  loaded ??= {
    css: load('payer.css', 'css', 'text/css; charset=utf-8'),
    js: load('payer.js', 'js', 'text/javascript; charset=utf-8'),
    // Only on the card step of a checkout whose cards go through Stripe (beside Stripe.js itself).
    stripeCard: load('stripe-card.js', 'js', 'text/javascript; charset=utf-8', 'stripe-card'),
  };
  return loaded;
}
