import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { after, describe } from 'node:test';
import pg from 'pg';
import type { Backend, BuildOptions, TestApp } from './app.ts';
import { buildServer, testBackends } from './app.ts';

export type { Backend, BuildOptions, TestApp, TestMerchant } from './app.ts';
export { BANK_DETAILS, testBackends, testMerchant } from './app.ts';

let pgDatabase: Promise<string> | null = null;
let createdPgDatabase: string | null = null;

// Registered at import time so it is a hook of the whole file, run after its last test.
after(async () => {
  if (!createdPgDatabase) {
    return;
  }
  const dropper = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await dropper.connect();
  await dropper.query(`drop database if exists ${createdPgDatabase} with (force)`);
  await dropper.end();
});

/** One PostgreSQL database per test process, created on first use and dropped when the process's tests end. */
function postgresUrl(): Promise<string> {
  if (!pgDatabase) {
    pgDatabase = (async () => {
      const base = new URL(process.env.TEST_DATABASE_URL ?? '');
      const name = `cobro_test_${process.pid}_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: base.toString() });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      createdPgDatabase = name;
      const url = new URL(base.toString());
      url.pathname = `/${name}`;
      return url.toString();
    })();
  }
  return pgDatabase;
}

/** The service for one test, closed when the test ends; on PostgreSQL in this test process's own database. */
export async function buildTestApp(
  t: TestContext,
  backend: Backend = 'sqlite',
  options: BuildOptions = {},
): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? (backend === 'postgres' ? await postgresUrl() : undefined);
  return buildServer((fn) => t.after(fn), backend, { ...options, ...(databaseUrl ? { databaseUrl } : {}) });
}

/**
 * Runs a group of tests once per available backend, so every test that touches the database
 * proves itself on SQLite and on PostgreSQL. `build(t)` gives a fresh app on that backend.
 */
export function describeBackends(
  name: string,
  fn: (build: (t: TestContext, options?: BuildOptions) => Promise<TestApp>, backend: Backend) => void,
): void {
  for (const backend of testBackends()) {
    describe(`${name} [${backend}]`, () => {
      fn((t, options) => buildTestApp(t, backend, options), backend);
    });
  }
}
