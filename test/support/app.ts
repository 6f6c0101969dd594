import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import pino from 'pino';
import type { Config } from '../../src/config/config.ts';
import { loadConfig } from '../../src/config/config.ts';
import type { Mode } from '../../src/domain/merchants/merchant.ts';
import type { SettingsPatch } from '../../src/domain/merchants/merchant-settings.ts';
import { ManualClock } from '../../src/domain/shared/clock.ts';
import type { Cobro, CobroOverrides } from '../../src/main.ts';
import { createCobro } from '../../src/main.ts';
import { loggerOptions } from '../../src/wiring/logging.ts';

export type Backend = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL names a server (scripts/test.sh sets it when one answers). */
export function testBackends(): Backend[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export type TestMerchant = {
  id: string;
  apiKey: string;
  apiSecret: string;
  mode: Mode;
  authHeaders: Record<string, string>;
};

export type TestApp = {
  app: FastifyInstance;
  cobro: Cobro;
  clock: ManualClock;
  backend: Backend;
  config: Config;
  /** A merchant with a test key pair, made for this test. */
  merchant: TestMerchant;
  /** A new merchant's key pair in `mode`, with `settings` stored (live mode offers only what its settings can settle). */
  createMerchant(mode?: Mode, settings?: SettingsPatch): Promise<TestMerchant>;
  /** The SQLite file (main database; `-wal` and `-shm` beside it), for tests that inspect storage. */
  sqlitePath: string | null;
};

/** A merchant's key pair in `mode`, with the headers that authenticate as it. */
export function testMerchant(
  pair: { merchantId: string; apiKey: string; apiSecret: string },
  mode: Mode,
): TestMerchant {
  return {
    id: pair.merchantId,
    apiKey: pair.apiKey,
    apiSecret: pair.apiSecret,
    mode,
    authHeaders: { 'x-api-key': pair.apiKey, 'x-api-secret': pair.apiSecret },
  };
}

/**
 * A bank account: stored, it lets a live merchant offer bank transfers (USD and the Latin
 * American currencies), so it can make live checkouts (nothing else settles in the harness).
 */
export const BANK_DETAILS = {
  bank_name: 'Banco Ejemplo',
  account_holder: 'Ana Lima',
  account_number: '000123456789',
  routing: '0001',
} as const;

export type BuildOptions = {
  env?: Record<string, string>;
  clock?: ManualClock;
  /** Receives every log line (JSON), e.g. to prove secrets never reach the logs. */
  logStream?: DestinationStream;
  logLevel?: string;
  /** Log through the production logger's options (LOG_LEVEL, the scrubbing of secrets) into `logStream`. */
  productionLogger?: boolean;
  /**
   * Open this database instead of a fresh one (`config.databaseUrl` of another test app), e.g. to
   * restart the service on the same data. The caller's app owns the database; this one only closes its connections.
   */
  databaseUrl?: string;
  /** Stand-ins for DNS and the network when sending webhooks (see CobroOverrides.webhookNetwork). */
  webhookNetwork?: CobroOverrides['webhookNetwork'];
};

/**
 * The service in this process on a real database, as the tests use it: a fresh SQLite file, or
 * the PostgreSQL database `options.databaseUrl` names. `onCleanup` receives what closes it.
 * Free of node:test, so a benchmark can use it without the test runner's hooks in its process.
 */
export async function buildServer(
  onCleanup: (fn: () => Promise<void>) => void,
  backend: Backend = 'sqlite',
  options: BuildOptions = {},
): Promise<TestApp> {
  let sqlitePath: string | null = null;
  let databaseUrl: string;
  let dir: string | null = null;
  if (options.databaseUrl) {
    databaseUrl = options.databaseUrl;
    sqlitePath = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : null;
  } else if (backend === 'sqlite') {
    dir = mkdtempSync(join(tmpdir(), 'cobro-test-'));
    sqlitePath = join(dir, 'cobro.db');
    databaseUrl = `sqlite:${sqlitePath}`;
  } else {
    throw new Error('a PostgreSQL app needs options.databaseUrl (buildTestApp makes one per test process)');
  }
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: 'http://127.0.0.1:3000',
    RATE_LIMIT_PER_SECOND: '100000',
    PG_POOL_SIZE: '4',
    // A fixed key so tests never write key files; it seals webhook secrets in the test databases only.
    SECRETS_KEY: 'dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=',
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock(new Date());
  const logger = options.productionLogger
    ? pino(loggerOptions(config), options.logStream)
    : pino({ level: options.logLevel ?? (options.logStream ? 'debug' : 'silent') }, options.logStream);
  const cobro = await createCobro(config, { clock, logger, jobs: false, webhookNetwork: options.webhookNetwork });
  await cobro.app.ready();
  // A test may close the app itself (a restart); the cleanup below must not close it twice.
  const closeOnce = cobro.close;
  let closing: Promise<void> | null = null;
  cobro.close = () => {
    closing ??= closeOnce();
    return closing;
  };
  onCleanup(async () => {
    await cobro.close();
    if (dir) {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  const createMerchant = async (mode: Mode = 'test', settings?: SettingsPatch): Promise<TestMerchant> => {
    const created = await cobro.services.merchants.createMerchant(`Merchant ${randomBytes(3).toString('hex')}`, 'test');
    if (settings) {
      await cobro.services.merchants.updateSettings(created.merchantId, settings);
    }
    return testMerchant(
      mode === 'test' ? created : await cobro.services.merchants.createKeyPair(created.merchantId, mode),
      mode,
    );
  };
  return {
    app: cobro.app,
    cobro,
    clock,
    backend,
    config,
    merchant: await createMerchant('test'),
    createMerchant,
    sqlitePath,
  };
}
