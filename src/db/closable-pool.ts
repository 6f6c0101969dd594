import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * node-postgres's pool, except that ending it fails the callers still waiting for a connection.
 *
 * pg-pool's `end()` stops handing out connections and ends each one as it is given back, but a
 * caller queued for a connection at that moment is neither served nor failed: its promise never
 * settles. Whatever awaited it (a billing run closed part-way, a request caught by shutdown)
 * then hung for good; with more renewals billed at once than the pool had connections, some were
 * always queued, which is how it showed. Here they fail at once with an error saying why.
 */
export function closablePool(pool: pg.Pool): PostgresPool {
  const waiting = new Set<(error: Error) => void>();
  let ended = false;
  return {
    connect(): Promise<PostgresPoolClient> {
      if (ended) {
        return Promise.reject(new Error('the database is closed'));
      }
      return new Promise<PostgresPoolClient>((resolve, reject) => {
        let settled = false;
        const fail = (error: Error) => {
          if (!settled) {
            settled = true;
            waiting.delete(fail);
            reject(error);
          }
        };
        waiting.add(fail);
        pool.connect().then(
          (client) => {
            if (settled) {
              // Failed by end() meanwhile: the connection goes straight back (and is ended).
              client.release();
              return;
            }
            settled = true;
            waiting.delete(fail);
            resolve(client);
          },
          (error: Error) => fail(error),
        );
      });
    },
    async end(): Promise<void> {
      ended = true;
      for (const fail of [...waiting]) {
        fail(new Error('the database was closed while this was waiting for a connection'));
      }
      await pool.end();
    },
  };
}
