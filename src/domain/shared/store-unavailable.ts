/** SQLSTATE codes of a server that is down, starting up or shutting down (class 08, 57P01–57P03). */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123])$/;
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);
/** What node-postgres says when a connection is lost, or cannot be had, without a code. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * Part of the unit of work's contract (unit-of-work.ts): an error for which this is true means
 * the store could not be reached and nothing was committed. The API and the pages answer it with
 * a 503 and a retry, not a 500. It reads only the error's shape (SQLSTATE or socket code, or
 * node-postgres's message), so it needs no database code.
 *
 * Whether an error means the database server could not be reached (it crashed, is restarting, or
 * the network to it is down) rather than that the statement was wrong. Such a failure is
 * temporary: the unit of work did not commit, and the same request may be retried.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) {
    return false;
  }
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code))) ||
    (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message))
  );
}
