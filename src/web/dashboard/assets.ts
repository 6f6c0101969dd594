import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Asset } from '../kit/assets.ts';

let loaded: { css: Asset; js: Asset } | null = null;

function asset(body: string, extension: 'css' | 'js', contentType: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/dashboard/assets/dashboard.${hash}.${extension}`, body, contentType };
}

/**
 * One stylesheet: the checkout's (its design tokens, forms, buttons, banner) followed by the
 * dashboard's own layout. Read and hashed once per process.
 */
export function loadDashboardAssets(): { css: Asset; js: Asset } {
  if (!loaded) {
    const read = (url: URL) => readFileSync(url, 'utf8');
    const css = `${read(new URL('../kit/assets/payer.css', import.meta.url))}\n${read(new URL('./assets/dashboard.css', import.meta.url))}`;
    loaded = {
      css: asset(css, 'css', 'text/css; charset=utf-8'),
      js: asset(read(new URL('./assets/dashboard.js', import.meta.url)), 'js', 'text/javascript; charset=utf-8'),
    };
  }
  return loaded;
}
