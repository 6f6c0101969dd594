import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/config.ts';

// src/config/config.ts: settings are read once at start, and a bad value stops the start with a
// message naming the variable (and the value), so an operator knows what to fix.

function refuses(env: Record<string, string>, variable: string): void {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `${JSON.stringify(env)} threw ${String(error)}`);
      assert.ok(
        error.message.includes(variable),
        `${JSON.stringify(env)}: "${error.message}" does not name ${variable}`,
      );
      return true;
    },
    `${JSON.stringify(env)} must be refused`,
  );
}

test('an empty environment gives the documented defaults', () => {
  assert.deepEqual(loadConfig({}), {
    port: 3000,
    host: '127.0.0.1',
    publicUrl: 'http://127.0.0.1:3000',
    databaseUrl: 'sqlite:./data/cobro.db',
    bootstrap: null,
    logLevel: 'info',
    rateLimitPerSecond: 100,
    authFailuresPerMinute: 100,
    trustProxy: false,
    bodyLimitBytes: 65_536,
    cardRecoveryAfterMs: 60_000,
    idempotencyRetentionHours: 24,
    ratesFile: null,
    sqliteSynchronous: 'FULL',
    pgPoolSize: 10,
    webhooks: {
      allowPrivateNetworks: false,
      allowlist: [],
      retryDelaysSeconds: [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400],
      timeoutMs: 15_000,
      maxConcurrencyPerEndpoint: 4,
      secretOverlapSeconds: 86_400,
    },
    chains: {
      bitcoinEsploraUrl: null,
      confirmations: { bitcoin: 2, ethereum: 2, polygon: 2, base: 2 },
      evm: {
        ethereum: { rpcUrl: null, chainId: null, tokens: {} },
        polygon: { rpcUrl: null, chainId: null, tokens: {} },
        base: { rpcUrl: null, chainId: null, tokens: {} },
      },
      pollMs: 15_000,
      timeoutMs: 10_000,
    },
    subscriptions: { retryDays: [1, 3, 5], cancelWhenRetriesExhausted: true, renewalNoticeHours: 72 },
    stripe: { apiUrl: 'https://api.stripe.com', timeoutMs: 20_000 },
    pix: { timeoutMs: 15_000 },
    smtpUrl: null,
    mailFrom: 'Cobro <no-reply@cobro.invalid>',
    secretsKey: null,
  });
});

test('valid values are read, trimmed and normalised', () => {
  const config = loadConfig({
    PORT: ' 8080 ',
    HOST: '0.0.0.0',
    PUBLIC_URL: 'https://pay.example.com/cobro/',
    DATABASE_URL: 'postgres://cobro@db.internal:5432/cobro',
    BOOTSTRAP_API_KEY: 'ck_test_ci_bootstrap',
    BOOTSTRAP_API_SECRET: 'cs_test_ci_bootstrap_secret_1',
    LOG_LEVEL: 'WARN',
    RATE_LIMIT_PER_SECOND: '20',
    AUTH_FAILURES_PER_MINUTE: '10',
    BODY_LIMIT_BYTES: '1024',
    IDEMPOTENCY_RETENTION_HOURS: '48',
    RATES_FILE: './rates.json',
    SQLITE_SYNCHRONOUS: 'extra',
    PG_POOL_SIZE: '4',
  });
  assert.equal(config.port, 8080);
  assert.equal(config.publicUrl, 'https://pay.example.com/cobro');
  assert.deepEqual(config.bootstrap, { apiKey: 'ck_test_ci_bootstrap', apiSecret: 'cs_test_ci_bootstrap_secret_1' });
  assert.equal(config.logLevel, 'warn');
  assert.equal(config.sqliteSynchronous, 'EXTRA');
  assert.equal(config.idempotencyRetentionHours, 48);
  // An empty value means "not set": the default applies.
  assert.equal(loadConfig({ PORT: '', RATE_LIMIT_PER_SECOND: '  ' }).rateLimitPerSecond, 100);
  // An IPv6 HOST gets brackets in the default PUBLIC_URL.
  assert.equal(loadConfig({ HOST: '::1', PORT: '4000' }).publicUrl, 'http://[::1]:4000');
});

test('each bad value refuses to start with a message naming its variable', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '65536' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://files.example' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'javascript:alert(1)' }, 'PUBLIC_URL'],
    [{ DATABASE_URL: 'mysql://root@localhost/cobro' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://' }, 'DATABASE_URL'],
    [{ BOOTSTRAP_API_KEY: 'ck_test_ci_bootstrap' }, 'BOOTSTRAP_API_SECRET'],
    [{ BOOTSTRAP_API_SECRET: 'cs_test_ci_bootstrap_secret_1' }, 'BOOTSTRAP_API_KEY'],
    [
      { BOOTSTRAP_API_KEY: 'ck_live_ci_bootstrap', BOOTSTRAP_API_SECRET: 'cs_test_ci_bootstrap_secret_1' },
      'BOOTSTRAP_API_KEY',
    ],
    [{ BOOTSTRAP_API_KEY: 'ck_test_ci_bootstrap', BOOTSTRAP_API_SECRET: 'short' }, 'BOOTSTRAP_API_SECRET'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ RATE_LIMIT_PER_SECOND: '0' }, 'RATE_LIMIT_PER_SECOND'],
    [{ RATE_LIMIT_PER_SECOND: '1e3' }, 'RATE_LIMIT_PER_SECOND'],
    [{ AUTH_FAILURES_PER_MINUTE: 'many' }, 'AUTH_FAILURES_PER_MINUTE'],
    [{ BODY_LIMIT_BYTES: '10' }, 'BODY_LIMIT_BYTES'],
    [{ BODY_LIMIT_BYTES: '99999999999' }, 'BODY_LIMIT_BYTES'],
    [{ IDEMPOTENCY_RETENTION_HOURS: '23' }, 'IDEMPOTENCY_RETENTION_HOURS'],
    [{ SQLITE_SYNCHRONOUS: 'OFF' }, 'SQLITE_SYNCHRONOUS'],
    [{ PG_POOL_SIZE: '0' }, 'PG_POOL_SIZE'],
    [{ PG_POOL_SIZE: '201' }, 'PG_POOL_SIZE'],
  ];
  for (const [env, variable] of cases) {
    refuses(env, variable);
  }
});

test('a PUBLIC_URL that cannot prefix checkout URLs (query, fragment, credentials) is refused', () => {
  for (const url of [
    'https://pay.example.com/?tenant=1',
    'https://pay.example.com/#top',
    'https://user:secret@pay.example.com',
    'http:pay.example.com',
  ]) {
    refuses({ PUBLIC_URL: url }, 'PUBLIC_URL');
  }
});

test('TRUST_PROXY takes the proxies: addresses, CIDR ranges or the named private ranges, and is off unless set', () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
  assert.deepEqual(loadConfig({ TRUST_PROXY: ' 127.0.0.1 , 10.0.0.0/8,::1, fd00::/8,Loopback' }).trustProxy, [
    '127.0.0.1',
    '10.0.0.0/8',
    '::1',
    'fd00::/8',
    'loopback',
  ]);
});

test('a TRUST_PROXY that any client could satisfy (true, a hop count, every address) or no address is refused', () => {
  for (const bad of [
    'true',
    '1',
    '2',
    '*',
    '0.0.0.0/0',
    '::/0',
    'proxy.internal',
    '10.0.0.0/33',
    '10.0.0.1/8/8',
    '10/8',
  ]) {
    refuses({ TRUST_PROXY: bad }, 'TRUST_PROXY');
  }
});

test('a HOST that makes no URL is refused naming HOST, not the PUBLIC_URL the operator never set', () => {
  refuses({ HOST: 'two words' }, 'HOST');
  refuses({ HOST: 'evil.example/path' }, 'HOST');
  // With PUBLIC_URL set, HOST is only the listen address.
  assert.equal(
    loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://pay.example.com' }).publicUrl,
    'https://pay.example.com',
  );
});

test('chain sources are http(s) URLs chosen by the operator, and confirmations are counted per network', () => {
  for (const bad of ['blockstream.info/api', 'ftp://esplora.example/api', 'https://esplora.example/api?key=1']) {
    refuses({ BITCOIN_ESPLORA_URL: bad }, 'BITCOIN_ESPLORA_URL');
  }
  refuses({ BITCOIN_CONFIRMATIONS: '0' }, 'BITCOIN_CONFIRMATIONS');
  const config = loadConfig({ BITCOIN_ESPLORA_URL: 'https://blockstream.info/api/', BITCOIN_CONFIRMATIONS: '3' });
  assert.equal(config.chains.bitcoinEsploraUrl, 'https://blockstream.info/api');
  assert.equal(config.chains.confirmations.bitcoin, 3);
  assert.equal(config.chains.confirmations.ethereum, 2);
});

test('EVM nodes are http(s) URLs (a key in the query allowed), with the chain id and token contracts overridable per network', () => {
  for (const bad of ['node.example:8545', 'ws://node.example', 'https://node.example/#x']) {
    refuses({ EVM_RPC_URL_BASE: bad }, 'EVM_RPC_URL_BASE');
  }
  refuses({ EVM_TOKEN_ETHEREUM_USDC: '0x1234' }, 'EVM_TOKEN_ETHEREUM_USDC');
  refuses({ EVM_CHAIN_ID_POLYGON: 'mainnet' }, 'EVM_CHAIN_ID_POLYGON');
  const config = loadConfig({
    EVM_RPC_URL_ETHEREUM: 'https://mainnet.node.example/v3?key=abc',
    EVM_CHAIN_ID_ETHEREUM: '11155111',
    EVM_TOKEN_ETHEREUM_USDC: '0x1C7D4B196Cb0C7B01d743Fbc6116a902379C7238',
  });
  assert.deepEqual(config.chains.evm.ethereum, {
    rpcUrl: 'https://mainnet.node.example/v3?key=abc',
    chainId: 11155111,
    tokens: { USDC: '0x1c7d4b196cb0c7b01d743fbc6116a902379c7238' },
  });
  assert.equal(config.chains.evm.base.rpcUrl, null);
});

test('STRIPE_API_URL is https://api.stripe.com unless set; plain http only to this machine, and no path', () => {
  assert.deepEqual(loadConfig({}).stripe, { apiUrl: 'https://api.stripe.com', timeoutMs: 20_000 });
  assert.equal(loadConfig({ STRIPE_API_URL: 'http://127.0.0.1:12111' }).stripe.apiUrl, 'http://127.0.0.1:12111');
  assert.equal(loadConfig({ STRIPE_API_URL: 'http://[::1]:12111/' }).stripe.apiUrl, 'http://[::1]:12111');
  assert.equal(
    loadConfig({ STRIPE_API_URL: 'https://stripe-proxy.internal:8443' }).stripe.apiUrl,
    'https://stripe-proxy.internal:8443',
  );
  assert.equal(loadConfig({ STRIPE_TIMEOUT_MS: '5000' }).stripe.timeoutMs, 5_000);
  refuses({ STRIPE_API_URL: 'http://stripe-proxy.internal:8080' }, 'STRIPE_API_URL');
  refuses({ STRIPE_API_URL: 'https://api.stripe.com/v1' }, 'STRIPE_API_URL');
  refuses({ STRIPE_API_URL: 'ftp://api.stripe.com' }, 'STRIPE_API_URL');
  refuses({ STRIPE_TIMEOUT_MS: '0' }, 'STRIPE_TIMEOUT_MS');
});
