import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config.ts';

/**
 * The key sealing webhook secrets: SECRETS_KEY, or a key file created on first start beside the
 * SQLite database (or in ./data for PostgreSQL). Several instances on one PostgreSQL must share
 * SECRETS_KEY.
 */
export function loadSecretsKey(config: Pick<Config, 'secretsKey' | 'databaseUrl'>): Buffer {
  if (config.secretsKey) {
    return config.secretsKey;
  }
  const dir = config.databaseUrl.startsWith('sqlite:') ? dirname(config.databaseUrl.slice('sqlite:'.length)) : './data';
  const file = join(dir, 'cobro-secrets.key');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) {
    throw new ConfigError(`${file} must hold 32 bytes in base64`);
  }
  return key;
}
