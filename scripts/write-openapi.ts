import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../src/config/config.ts';
import { createCobro } from '../src/main.ts';

/** The server URL written into the committed document; the OpenAPI test serves the app with the same one. */
export const OPENAPI_PUBLIC_URL = 'http://127.0.0.1:3000';

/** Where `npm run openapi` writes the document (committed; `npm run check` compares a fresh one). */
export const OPENAPI_PATH = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

/** The document as the committed file holds it: two-space JSON and a trailing newline. */
export function formatOpenApi(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Builds the service exactly as `npm start` does (createCobro, the composition root), on a
 * throwaway SQLite database, and returns what it would serve at GET /openapi.json. The
 * environment is fixed here, not read, so the output depends on the code alone.
 */
export async function renderOpenApi(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-openapi-'));
  try {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}`,
      PUBLIC_URL: OPENAPI_PUBLIC_URL,
      LOG_LEVEL: 'silent',
    });
    const cobro = await createCobro(config, { logger: pino({ level: 'silent' }), jobs: false });
    try {
      await cobro.app.ready();
      return formatOpenApi(cobro.app.swagger());
    } finally {
      await cobro.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const text = await renderOpenApi();
  mkdirSync(fileURLToPath(new URL('../docs/', import.meta.url)), { recursive: true });
  writeFileSync(OPENAPI_PATH, text);
  process.stdout.write(`wrote ${OPENAPI_PATH} (${text.length} bytes)\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
