import type { Config } from './config/config.ts';
import { loadConfig } from './config/config.ts';
import type { ServerLock } from './db/server-lock.ts';
import { lockSqliteServer } from './db/server-lock.ts';
import { CLI_ACTOR } from './domain/dashboard/audit.ts';
import type { Cobro } from './main.ts';
import { createCobro } from './main.ts';

/**
 * What a process does: serve HTTP (the API, the checkout, the dashboard), run the background
 * jobs (expiry, chain watching, card sync, billing, webhook delivery, e-mail, sweeping), or both.
 * `npm start` does both; `cobro serve [--jobs=off]` and `cobro worker` split them, so that on
 * PostgreSQL an operator can run N API processes and M workers (docs/operations.md).
 */
export type ProcessRole = { http: boolean; jobs: boolean };

/** First start without BOOTSTRAP_*: a demo merchant, its keys printed once to the terminal (never to the log). */
async function ensureMerchant(cobro: Cobro, config: Config): Promise<void> {
  const { merchants } = cobro.services;
  if (config.bootstrap) {
    if (await merchants.bootstrap(config.bootstrap.apiKey, config.bootstrap.apiSecret)) {
      cobro.logger.info('created the bootstrap merchant for BOOTSTRAP_API_KEY');
    }
    return;
  }
  if (await merchants.hasMerchants()) {
    return;
  }
  const demo = await merchants.createMerchant('Demo merchant', 'test');
  const invitation = await cobro.services.dashboard.team.invite(
    demo.merchantId,
    'owner@demo.invalid',
    'owner',
    CLI_ACTOR,
  );
  process.stdout.write(
    [
      '',
      'Cobro created a demo merchant (test mode). These keys are shown only once:',
      `  merchant_id  ${demo.merchantId}`,
      `  x-api-key    ${demo.apiKey}`,
      `  x-api-secret ${demo.apiSecret}`,
      '',
      'Open the dashboard as its owner (sign in as owner@demo.invalid; the link is valid 72 hours, once):',
      `  ${invitation.inviteUrl}`,
      '',
      '',
    ].join('\n'),
  );
}

/** Starts a process in `role` and stops it cleanly on SIGTERM/SIGINT; exits 1 if it cannot start. */
export async function runProcess(role: ProcessRole): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`cobro: ${(error as Error).message}\n`);
    process.exit(1);
  }
  let cobro: Cobro;
  let serverLock: ServerLock | null;
  try {
    // On SQLite a worker counts as a serving process too: it writes and runs the jobs.
    serverLock = lockSqliteServer(config.databaseUrl);
    cobro = await createCobro(config, { jobs: role.jobs });
    if (serverLock) {
      // Under the SQLite server lock no other process can be working: idempotency keys still in
      // flight and webhook deliveries still leased belong to a process that died, and waiting
      // out their locks (30 s, a minute) would only delay the retries and the deliveries.
      const keys = await cobro.services.idempotency.lapseOrphanedLocks();
      const deliveries = await cobro.database.uow.transaction((repos) => repos.webhookDeliveries.releaseAllLeases());
      if (keys + deliveries > 0) {
        cobro.logger.info({ keys, deliveries }, 'locks of a previous run released');
      }
    }
  } catch (error) {
    process.stderr.write(`cobro: could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const jobs = role.jobs ? 'on' : 'off';
  let keepAlive: NodeJS.Timeout | null = null;
  if (role.http) {
    await ensureMerchant(cobro, config);
    await cobro.app.listen({ port: config.port, host: config.host });
    cobro.logger.info({ url: config.publicUrl, database: cobro.database.kind, jobs }, 'cobro is serving');
    process.stdout.write(
      `Cobro is serving on ${config.publicUrl} (database: ${cobro.database.kind}${role.jobs ? '' : ', jobs off'})\n`,
    );
  } else {
    // The jobs' timers do not hold the process open (a serving process has its listener, and on
    // PostgreSQL the pool's connections); a worker on SQLite has nothing else, and would exit.
    keepAlive = setInterval(() => undefined, 3_600_000);
    cobro.logger.info({ database: cobro.database.kind }, 'cobro worker is running the jobs');
    process.stdout.write(`Cobro worker is running the jobs (database: ${cobro.database.kind})\n`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    cobro.logger.info({ signal }, 'shutting down: finishing requests in flight');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    if (role.http) {
      // New connections are refused from here on; requests already sent are all answered. The
      // drain waits by turns of the event loop (drain.ts); the times are floors for bytes still
      // on the wire, and the two deadlines of 4 s keep the worst case under the 10 s exit bound.
      await cobro.app.drain({ acceptMs: 200, settleMs: 300, pollMs: 100, deadlineMs: 4_000 });
    }
    await cobro.close();
    if (keepAlive) {
      clearInterval(keepAlive);
    }
    serverLock?.release();
    cobro.logger.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
