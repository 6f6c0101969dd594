import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config/config.ts';
import { backupSqlite } from '../db/backup.ts';
import { CLI_ACTOR } from '../domain/dashboard/audit.ts';
import type { Mode } from '../domain/merchants/merchant.ts';
import type { StoredSettings } from '../domain/merchants/merchant-settings.ts';
import type {
  PaymentSettingsField,
  PaymentSettingsInput,
  PaymentSettingsService,
} from '../domain/merchants/payment-settings.ts';
import { AppError } from '../domain/shared/errors.ts';
import { createCobro } from '../main.ts';
import { runProcess } from '../process-roles.ts';
import { apiClientFromEnv, CliError } from './api-client.ts';
import { listen, parseForwardTo } from './listen.ts';
import { formatTrigger, trigger } from './trigger.ts';

const USAGE = `Usage: npm run --silent cobro -- <command>

Commands:
  serve [--jobs=on|off]                            serve the API, checkout and dashboard (with the
                                                   background jobs unless --jobs=off); npm start is serve
  worker                                           run the background jobs alone (no HTTP); on PostgreSQL
                                                   run any number of serve and worker processes
  migrate                                          apply database migrations
  backup --to FILE [--json]                        a consistent copy of the SQLite database, taken
                                                   while the server runs (restore: docs/operations.md)
  merchant create --name NAME [--json]             new merchant with a test key pair
  keys create --merchant ID --mode test|live [--json]
                                                   new key pair for a merchant
  keys revoke KEY                                  revoke a key (its secret stops working at once)
  user invite --merchant ID --email EMAIL --role owner|admin|developer|viewer [--json]
                                                   a dashboard invitation link (valid 72 hours, once),
                                                   also e-mailed to EMAIL
  settings show --merchant ID                      the merchant's payment settings
  settings set --merchant ID [options]             set payment settings (test mode has working defaults):
      --pix-key KEY --pix-name NAME --pix-city CITY
      --btc-xpub XPUB [--btc-network mainnet|testnet]   account-level BIP84 zpub/vpub (or xpub/tpub)
      --evm-xpub XPUB                                    account-level xpub at m/44'/60'/0'
      --bank-name N --bank-holder H --bank-account A --bank-routing R

Developer tools (talk to a running server with COBRO_API_KEY and COBRO_API_SECRET; the server is
--api-url, else COBRO_API_URL, else http://127.0.0.1:3000):
  listen --forward-to URL [--api-url URL]          forward the merchant's events as they happen to a
                                                   local URL, signed like real deliveries; one line each
  trigger EVENT_TYPE [--api-url URL] [--json]      test keys: make the objects and the change that emit
                                                   PAYMENT_ORDER.OPENED|CLOSED|REJECTED|EXPIRED|REFUNDED or
                                                   RECURRENT_PAYMENT.PENDING|TRIALING|ACTIVE|UNPAID|CANCELED|
                                                   COMPLETE|INCOMPLETE|REJECTED|EXPIRED (UNPAID, COMPLETE and
                                                   EXPIRED move the merchant's test clock forward)

The database (all other commands) is DATABASE_URL (default sqlite:./data/cobro.db).`;

function fail(message: string): never {
  process.stderr.write(`cobro: ${message}\n`);
  process.exit(2);
}

/**
 * Builds a settings patch from the flags, checked by the same function as the dashboard's
 * payment settings form (each value the way the checkout will use it); messages name the flags.
 */
function settingsPatch(
  settings: PaymentSettingsService,
  v: Record<string, string | boolean | undefined>,
): StoredSettings {
  const input: PaymentSettingsInput = {};
  for (const field of SETTINGS_FIELDS) {
    const value = v[field.replaceAll('_', '-')];
    if (typeof value === 'string') {
      input[field] = value;
    }
  }
  const { patch, problems } = settings.check(input, (field) => `--${field.replaceAll('_', '-')}`);
  if (problems.length > 0) {
    fail(problems.map((p) => p.message).join('\ncobro: '));
  }
  if (Object.keys(patch).length === 0) {
    fail('settings set needs at least one of --pix-key, --btc-xpub, --evm-xpub, --bank-name');
  }
  return patch;
}

const SETTINGS_FIELDS = [
  'pix_key',
  'pix_name',
  'pix_city',
  'btc_xpub',
  'btc_network',
  'evm_xpub',
  'bank_name',
  'bank_holder',
  'bank_account',
  'bank_routing',
] as const satisfies readonly PaymentSettingsField[];

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      merchant: { type: 'string' },
      mode: { type: 'string' },
      json: { type: 'boolean', default: false },
      'pix-key': { type: 'string' },
      'pix-name': { type: 'string' },
      'pix-city': { type: 'string' },
      'btc-xpub': { type: 'string' },
      'btc-network': { type: 'string' },
      'evm-xpub': { type: 'string' },
      'bank-name': { type: 'string' },
      'bank-holder': { type: 'string' },
      'bank-account': { type: 'string' },
      'bank-routing': { type: 'string' },
      'forward-to': { type: 'string' },
      'api-url': { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      jobs: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // The long-running roles: each starts and stops like npm start (process-roles.ts).
  if (command === 'serve' || command === 'worker') {
    const jobs = values.jobs ?? 'on';
    if (jobs !== 'on' && jobs !== 'off') {
      fail(`--jobs must be on or off, got "${jobs}"`);
    }
    if (command === 'worker' && values.jobs !== undefined) {
      fail('worker always runs the jobs: --jobs is for serve');
    }
    await runProcess({ http: command === 'serve', jobs: command === 'worker' || jobs === 'on' });
    return;
  }
  // The developer tools are API clients: no configuration, no database.
  if (command === 'listen') {
    const api = apiClientFromEnv(process.env, values['api-url']);
    const forwardTo = parseForwardTo(values['forward-to']);
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    await listen({
      api,
      forwardTo,
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      signal: stop.signal,
    });
    return;
  }
  if (command === 'trigger') {
    if (!sub) {
      fail('trigger needs an event type, e.g. trigger PAYMENT_ORDER.CLOSED');
    }
    const result = await trigger(apiClientFromEnv(process.env, values['api-url']), sub);
    process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : formatTrigger(result));
    return;
  }
  const config = loadConfig();
  if (command === 'backup') {
    // A copy of the file as it is, taken beside the running server: no migration, no services.
    if (!values.to) {
      fail('backup needs --to FILE');
    }
    const result = await backupSqlite(config.databaseUrl, values.to);
    process.stdout.write(
      values.json
        ? `${JSON.stringify({ path: result.path, bytes: result.bytes, pages: result.pages, integrity_check: result.integrity })}\n`
        : `backup written to ${result.path} (${result.bytes} bytes, integrity_check ${result.integrity})\n`,
    );
    return;
  }
  const cobro = await createCobro(config, { logger: pino({ level: 'warn' }, pino.destination(2)), jobs: false });
  try {
    const { merchants } = cobro.services;
    const print = (pair: { merchantId: string; apiKey: string; apiSecret: string; mode: Mode }) => {
      if (values.json) {
        process.stdout.write(
          `${JSON.stringify({ merchant_id: pair.merchantId, api_key: pair.apiKey, api_secret: pair.apiSecret, mode: pair.mode })}\n`,
        );
      } else {
        process.stdout.write(
          `merchant_id  ${pair.merchantId}\nmode         ${pair.mode}\nx-api-key    ${pair.apiKey}\nx-api-secret ${pair.apiSecret}\n(the secret is shown only now)\n`,
        );
      }
    };
    if (command === 'migrate') {
      // createCobro already migrated; say so plainly.
      process.stdout.write(`migrations applied (${cobro.database.kind})\n`);
    } else if (command === 'merchant' && sub === 'create') {
      if (!values.name) {
        fail('merchant create needs --name NAME');
      }
      print(await merchants.createMerchant(values.name, 'test'));
    } else if (command === 'keys' && sub === 'create') {
      if (!values.merchant) {
        fail('keys create needs --merchant ID');
      }
      if (values.mode !== 'test' && values.mode !== 'live') {
        fail('keys create needs --mode test or --mode live');
      }
      print(await merchants.createKeyPair(values.merchant, values.mode));
    } else if (command === 'keys' && sub === 'revoke') {
      if (!arg) {
        fail('keys revoke needs the key (ck_test_… or ck_live_…)');
      }
      await merchants.revokeKey(arg);
      process.stdout.write(`revoked ${arg}\n`);
    } else if (command === 'user' && sub === 'invite') {
      if (!values.merchant || !values.email || !values.role) {
        fail('user invite needs --merchant ID --email EMAIL --role owner|admin|developer|viewer');
      }
      const invitation = await cobro.services.dashboard.team.invite(
        values.merchant,
        values.email,
        values.role,
        CLI_ACTOR,
      );
      process.stdout.write(
        values.json
          ? `${JSON.stringify({ email: invitation.email, role: invitation.role, merchant_id: invitation.merchantId, invite_url: invitation.inviteUrl })}\n`
          : `Invitation for ${invitation.email} (${invitation.role}), valid 72 hours, once:\n  ${invitation.inviteUrl}\n`,
      );
    } else if (command === 'settings' && (sub === 'show' || sub === 'set')) {
      if (!values.merchant) {
        fail(`settings ${sub} needs --merchant ID`);
      }
      if (sub === 'show') {
        process.stdout.write(`${JSON.stringify(await merchants.getSettings(values.merchant), null, 2)}\n`);
      } else {
        const patch = settingsPatch(cobro.services.paymentSettings, values);
        const saved = await merchants.updateSettings(values.merchant, patch);
        process.stdout.write(`${JSON.stringify(saved, null, 2)}\n`);
      }
    } else {
      fail(`unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
    }
  } finally {
    await cobro.close();
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof CliError) {
    process.stderr.write(`cobro: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  if (error instanceof AppError || error instanceof ConfigError) {
    fail(error.message);
  }
  fail((error as Error).message);
}
