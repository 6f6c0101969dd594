import type SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { CredentialFreshness } from '../domain/merchants/credential-freshness.ts';

/** The PostgreSQL channel a key revocation is announced on; the payload is the revoked key (never its secret). */
export const KEY_REVOKED_CHANNEL = 'cobro_key_revoked';
/** Where each listening process answers, with the same payload, once it has dropped the key. */
export const KEY_REVOKED_ACK_CHANNEL = 'cobro_key_revoked_ack';
/** The listening connections' `application_name`, by which a revoker finds who must answer. */
export const LISTENER_APPLICATION_NAME = 'cobro key revocations';

/** A freshness source this process opened and must close at shutdown. */
export type CredentialWatch = CredentialFreshness & { close(): Promise<void> };

/** What the PostgreSQL listener reports, for the log. */
export type CredentialWatchEvents = {
  /** LISTEN is live again after `down`: keys are cached again. */
  onLive?: () => void;
  /** The listening connection failed or could not be opened: keys are read on every request until it is back. */
  onDown?: (error: Error | undefined) => void;
  /** A revocation was not confirmed by `processes` listening processes in time (see confirmRevoked). */
  onUnconfirmed?: (processes: number) => void;
};

/**
 * SQLite: `PRAGMA data_version` changes whenever ANOTHER connection (the command line, another
 * process) has committed, and never for the polling connection's own commits. It is polled on
 * the group-commit writer, since that is the connection this process writes through: polling
 * the reader instead would see every one of our own commits and drop the cache on each.
 *
 * Consequently a key revoked by THIS process's own writes is not noticed here: revoke through
 * MerchantService.revokeKey, which clears its cache itself.
 *
 * Cost: one prepared statement, synchronous, no parsing; in WAL mode SQLite takes and releases
 * a read lock on the -shm file for it (two fcntl system calls) when the writer is not inside a
 * transaction, and nothing at all while it is (no other connection can commit then); its cost
 * is in docs/performance.md, "Measured choices in the code".
 */
export class SqliteDataVersion implements CredentialWatch {
  private readonly dataVersion: SqliteDatabase.Statement<[], number>;
  private closed = false;

  constructor(writer: SqliteDatabase.Database) {
    // A plain number (the connection reads integers as bigint by default), so equality is cheap.
    this.dataVersion = writer.prepare<[], number>('PRAGMA data_version').pluck().safeIntegers(false);
  }

  version(): number | null {
    if (this.closed) {
      return null;
    }
    try {
      return this.dataVersion.get() as number;
    } catch {
      // Cannot tell (the connection is busy or failing): the safe answer is "cache nothing".
      return null;
    }
  }

  onRevoked(): void {
    // Never called: a commit anywhere else changes data_version, which is all the cache needs.
  }

  async confirmRevoked(): Promise<void> {
    // Nothing to wait for: every process reads data_version before it trusts its cache.
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Reconnect delays after the listening connection is lost: doubling from the first to the last, then the last. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;
/** How long a revocation waits for the other processes to confirm (see confirmRevoked). */
const CONFIRM_TIMEOUT_MS = 3_000;
/** Confirmations are kept this long, for a revoker that starts waiting after they arrived. */
const ACK_KEPT_MS = 60_000;

/**
 * PostgreSQL: one dedicated connection (outside the pool) runs `LISTEN cobro_key_revoked`; a
 * revoking transaction runs `pg_notify` (see KyselyApiKeyRepository.revoke), which PostgreSQL
 * delivers to every listener when, and only if, it commits. No query per request: `version()`
 * reads a field.
 *
 * A notification sent while the connection is down is lost for good, so while it is not
 * listening `version()` is `null` (nothing is cached), and every loss and every new LISTEN
 * changes the version, which drops whatever was cached before. It reconnects with backoff.
 *
 * A notification arrives a moment after the commit, and a client told "revoked" could be
 * quicker than that to ask another process. So each listener, once it has dropped the key,
 * answers on KEY_REVOKED_ACK_CHANNEL, and the revoker waits (`confirmRevoked`) until every
 * listening connection of the database has answered or gone, for at most CONFIRM_TIMEOUT_MS.
 */
export class PostgresKeyRevocationListener implements CredentialWatch {
  private generation = 0;
  private live = false;
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly listeners: ((apiKey: string | null) => void)[] = [];
  private wasDown = false;
  /** Revoked key → the listening backends (pids) that said they dropped it, and when the last did. */
  private readonly acks = new Map<string, { pids: Set<number>; at: number }>();

  constructor(
    private readonly url: string,
    private readonly events: CredentialWatchEvents = {},
    private readonly confirmTimeoutMs = CONFIRM_TIMEOUT_MS,
  ) {}

  /** Opens the connection; resolves once the first attempt has succeeded or failed (failures retry in the background). */
  start(): Promise<void> {
    return this.connect();
  }

  version(): number | null {
    return this.live ? this.generation : null;
  }

  onRevoked(listener: (apiKey: string | null) => void): void {
    this.listeners.push(listener);
  }

  async confirmRevoked(apiKey: string): Promise<void> {
    const client = this.client;
    if (!client || !this.live) {
      // No one can be asked; every process that is not listening caches nothing anyway.
      return;
    }
    const deadline = performance.now() + this.confirmTimeoutMs;
    let waitingFor: number[];
    try {
      waitingFor = await this.listeningBackends(client);
    } catch {
      return;
    }
    let recheckAt = performance.now() + 200;
    for (;;) {
      const acked = this.acks.get(apiKey)?.pids;
      waitingFor = waitingFor.filter((pid) => !acked?.has(pid));
      if (waitingFor.length === 0) {
        return;
      }
      const now = performance.now();
      if (now >= deadline) {
        this.events.onUnconfirmed?.(waitingFor.length);
        return;
      }
      if (now >= recheckAt) {
        // A listener that has gone since (its process ended or lost the connection) will never
        // answer; its process no longer trusts its cache.
        try {
          const alive = new Set(await this.listeningBackends(client));
          waitingFor = waitingFor.filter((pid) => alive.has(pid));
        } catch {
          return;
        }
        recheckAt = now + 200;
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    this.live = false;
    this.generation++;
    const client = this.client;
    this.client = null;
    if (client) {
      await client.end().catch(() => {});
    }
  }

  private async connect(): Promise<void> {
    this.retryTimer = null;
    if (this.closed) {
      return;
    }
    const client = new pg.Client({
      connectionString: this.url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    this.client = client;
    // Always handled, even after this client is replaced: an unhandled 'error' would end the process.
    client.on('error', (error: Error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    client.on('notification', (message) => {
      if (this.client !== client) {
        return;
      }
      if (message.channel === KEY_REVOKED_CHANNEL) {
        const apiKey = message.payload ? message.payload : null;
        for (const listener of this.listeners) {
          listener(apiKey);
        }
        if (apiKey !== null) {
          // Dropped: say so. Sent on this connection, so the answer carries its backend's pid.
          client.query('select pg_notify($1, $2)', [KEY_REVOKED_ACK_CHANNEL, apiKey]).catch(() => {});
        }
      } else if (message.channel === KEY_REVOKED_ACK_CHANNEL && message.payload) {
        this.recordAck(message.payload, message.processId);
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_REVOKED_CHANNEL}; LISTEN ${KEY_REVOKED_ACK_CHANNEL}`);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (this.client !== client) {
      // Lost (or closed) while LISTEN was on its way.
      return;
    }
    // From here every committed revocation reaches us; anything before is read fresh, since the
    // new version drops what was cached.
    this.generation++;
    this.live = true;
    this.retryMs = RETRY_FIRST_MS;
    if (this.wasDown) {
      this.wasDown = false;
      this.events.onLive?.();
    }
  }

  /** The backends of this database's listening connections (every process's, this one's included). */
  private async listeningBackends(client: pg.Client): Promise<number[]> {
    const result = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and application_name = $1',
      [LISTENER_APPLICATION_NAME],
    );
    return result.rows.map((row) => row.pid);
  }

  private recordAck(apiKey: string, pid: number): void {
    const now = performance.now();
    for (const [key, ack] of this.acks) {
      if (now - ack.at > ACK_KEPT_MS) {
        this.acks.delete(key);
      }
    }
    const ack = this.acks.get(apiKey) ?? { pids: new Set<number>(), at: now };
    ack.pids.add(pid);
    ack.at = now;
    this.acks.set(apiKey, ack);
  }

  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.client !== client) {
      return;
    }
    this.client = null;
    this.live = false;
    this.generation++;
    client.end().catch(() => {});
    if (this.closed) {
      return;
    }
    if (!this.wasDown) {
      this.wasDown = true;
      this.events.onDown?.(error);
    }
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }
}
