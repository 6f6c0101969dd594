import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config/config.ts';
import { backupSqlite } from '../db/backup.ts';
import type { ConnectionView } from '../domain/connectors/connection.ts';
import { pixCertificateOf } from '../domain/connectors/pix-certificate.ts';
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
import type { Services } from '../services.ts';
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
  connect stripe --merchant ID --secret-key KEY --publishable-key KEY [--webhook-secret whsec_…] [--json]
                                                   connect the merchant's own Stripe account (the keys'
                                                   mode: live or test); checks the key, creates the
                                                   webhook endpoint unless --webhook-secret is given
  connect pix --merchant ID --mode live|test --base-url URL --client-id ID --client-secret SECRET
      --cert FILE --key FILE [--ca FILE] --pix-key KEY [--token-url URL] [--profile bcb|efi|inter] [--json]
                                                   connect the merchant's PSP through its API Pix (mutual
                                                   TLS with the PSP's client certificate: PEM, or a
                                                   PKCS#12 .p12/.pfx as --cert with --cert-passphrase and
                                                   no --key); checks the credentials, registers the webhook
  connect show --merchant ID [--json]              the merchant's connections (no secrets)
  connect remove --merchant ID --provider stripe|pix --mode live|test
                                                   remove one, and the webhook it registered

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

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A connection as `connect show --json` prints it: never a secret, masked or not. */
function connectionJson(c: ConnectionView): Record<string, unknown> {
  return {
    merchant_id: c.merchantId,
    mode: c.mode,
    provider: c.provider,
    account_id: c.accountId,
    account_name: c.accountName,
    publishable_key: c.publishableKey,
    webhook_url: c.webhookUrl,
    webhook_endpoint_id: c.webhookEndpointId,
    connected_at: iso(c.createdAt),
    last_event_at: iso(c.lastEventAt),
    last_error: c.lastError,
    ...(c.pix
      ? {
          pix: {
            base_url: c.pix.baseUrl,
            token_url: c.pix.tokenUrl,
            profile: c.pix.profile,
            client_id: c.pix.clientId,
            pix_key: c.pix.pixKey,
          },
        }
      : {}),
  };
}

/**
 * The client certificate of `connect pix`: PEM certificate and key files, or one PKCS#12 bundle
 * (DER, as PSPs hand out .p12/.pfx files) with its passphrase. Read here, sealed by the service.
 */
function pixCertificate(certFile: string, keyFile: string | undefined, passphrase: string | undefined) {
  const read = pixCertificateOf({
    certificate: readFileSync(certFile),
    key: keyFile ? readFileSync(keyFile, 'utf8') : null,
    passphrase: passphrase ?? null,
  });
  if (!read.ok) {
    fail(
      {
        certificate_missing: '--cert: the file is empty',
        key_missing: 'connect pix needs --key FILE with a PEM certificate (or a PKCS#12 .p12/.pfx as --cert)',
        key_not_pem: '--key: not a PEM private key',
      }[read.problem],
    );
  }
  return read.certificate;
}

/** connect stripe|pix|show|remove (INTERFACE §11); secrets are read from the flags or files and never printed. */
async function connect(
  { connecting, connections, removal }: Pick<Services['connectors'], 'connecting' | 'connections' | 'removal'>,
  sub: 'stripe' | 'pix' | 'show' | 'remove',
  v: Record<string, string | boolean | undefined>,
): Promise<void> {
  const merchant = v.merchant;
  if (typeof merchant !== 'string') {
    fail(`connect ${sub} needs --merchant ID`);
  }
  const str = (name: string) => (typeof v[name] === 'string' ? (v[name] as string) : undefined);
  if (sub === 'stripe') {
    const secretKey = str('secret-key');
    const publishableKey = str('publishable-key');
    if (!secretKey || !publishableKey) {
      fail('connect stripe needs --secret-key KEY and --publishable-key KEY');
    }
    const c = await connecting.connect(
      merchant,
      'stripe',
      { secretKey, publishableKey, webhookSecret: str('webhook-secret') ?? null },
      CLI_ACTOR,
    );
    process.stdout.write(
      v.json
        ? `${JSON.stringify({ merchant_id: c.merchantId, mode: c.mode, provider: 'stripe', account_id: c.accountId, webhook_url: c.webhookUrl, webhook_endpoint_id: c.webhookEndpointId })}\n`
        : `Stripe connected for ${c.merchantId} (${c.mode} mode)\naccount      ${c.accountId}${c.accountName ? ` (${c.accountName})` : ''}\nwebhook_url  ${c.webhookUrl}\n${
            c.webhookEndpointId
              ? `endpoint     ${c.webhookEndpointId} (created at Stripe)\n`
              : 'endpoint     yours: make Stripe send the card events to webhook_url (docs/connectors/stripe.md)\n'
          }`,
    );
    return;
  }
  if (sub === 'pix') {
    const mode = str('mode');
    const required = ['base-url', 'client-id', 'client-secret', 'cert', 'pix-key'].filter((flag) => !str(flag));
    if ((mode !== 'live' && mode !== 'test') || required.length > 0) {
      fail(
        `connect pix needs --mode live|test --base-url URL --client-id ID --client-secret SECRET --cert FILE --key FILE --pix-key KEY${required.length > 0 ? ` (missing: ${required.map((f) => `--${f}`).join(', ')})` : ''}`,
      );
    }
    const c = await connecting.connectPix(
      merchant,
      {
        mode,
        baseUrl: str('base-url') ?? '',
        tokenUrl: str('token-url') ?? null,
        clientId: str('client-id') ?? '',
        clientSecret: str('client-secret') ?? '',
        certificate: pixCertificate(str('cert') ?? '', str('key'), str('cert-passphrase')),
        ca: str('ca') ? readFileSync(str('ca') ?? '', 'utf8') : null,
        pixKey: str('pix-key') ?? '',
        profile: str('profile') ?? 'bcb',
      },
      CLI_ACTOR,
    );
    process.stdout.write(
      v.json
        ? `${JSON.stringify({ merchant_id: c.merchantId, mode: c.mode, provider: 'pix', webhook_url: c.webhookUrl })}\n`
        : `API Pix connected for ${c.merchantId} (${c.mode} mode)\npsp          ${c.pix?.baseUrl} (profile ${c.pix?.profile})\npix key      ${c.accountId}\nwebhook_url  ${c.webhookUrl} (registered at the PSP; notifications arrive at it and at its /pix)\n`,
    );
    return;
  }
  if (sub === 'show') {
    const list = await connections.list(merchant);
    if (v.json) {
      process.stdout.write(`${JSON.stringify(list.map(connectionJson))}\n`);
    } else if (list.length === 0) {
      process.stdout.write(`no connections for ${merchant}\n`);
    } else {
      for (const c of list) {
        process.stdout.write(
          `${c.provider} ${c.mode}  account ${c.accountId}${c.accountName ? ` (${c.accountName})` : ''}\n  webhook_url  ${c.webhookUrl}\n  endpoint     ${c.webhookEndpointId ?? "(the merchant's own)"}\n  last event   ${iso(c.lastEventAt) ?? 'none yet'}${c.lastError ? `\n  last error   ${c.lastError}` : ''}\n`,
        );
      }
    }
    return;
  }
  const provider = str('provider');
  const mode = str('mode');
  if (!provider || (mode !== 'live' && mode !== 'test')) {
    fail('connect remove needs --provider stripe|pix and --mode live or --mode test');
  }
  const result = await removal.remove(merchant, provider, mode, CLI_ACTOR);
  process.stdout.write(
    v.json
      ? `${JSON.stringify({ merchant_id: merchant, mode, provider, removed: true, webhook_endpoint_deleted: result.endpointDeleted })}\n`
      : `removed the ${provider} connection of ${merchant} (${mode} mode)\n`,
  );
  if (result.warning) {
    process.stderr.write(`cobro: warning: ${result.warning}\n`);
  }
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
      'secret-key': { type: 'string' },
      'publishable-key': { type: 'string' },
      'webhook-secret': { type: 'string' },
      provider: { type: 'string' },
      'base-url': { type: 'string' },
      'token-url': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      cert: { type: 'string' },
      key: { type: 'string' },
      'cert-passphrase': { type: 'string' },
      ca: { type: 'string' },
      profile: { type: 'string' },
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
    } else if (command === 'connect' && (sub === 'stripe' || sub === 'pix' || sub === 'show' || sub === 'remove')) {
      await connect(cobro.services.connectors, sub, values);
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
