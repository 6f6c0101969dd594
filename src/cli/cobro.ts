import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config/config.ts';
import type { Mode } from '../domain/merchants/merchant.ts';
import { AppError } from '../domain/shared/errors.ts';
import { createCobro } from '../main.ts';

const USAGE = `Usage: npm run --silent cobro -- <command>

Commands:
  migrate                                          apply database migrations
  merchant create --name NAME [--json]             new merchant with a test key pair
  keys create --merchant ID --mode test|live [--json]
                                                   new key pair for a merchant
  keys revoke KEY                                  revoke a key (its secret stops working at once)

The database is DATABASE_URL (default sqlite:./data/cobro.db).`;

function fail(message: string): never {
  process.stderr.write(`cobro: ${message}\n`);
  process.exit(2);
}

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
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
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
  if (error instanceof AppError || error instanceof ConfigError) {
    fail(error.message);
  }
  fail((error as Error).message);
}
