import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

export type DrainOptions = {
  /** At least this long, connections queued in the listener's backlog are accepted before it closes. */
  acceptMs: number;
  /** At least this long, the requests already sent are read before idle connections are closed. */
  settleMs: number;
  /** How often connections that went idle since are closed. */
  pollMs: number;
  /** How long accepting the backlog may take at most, and then waiting for connections that stay busy. */
  deadlineMs: number;
};

/**
 * The drain waits by turns of the event loop, each with a poll for I/O, as well as by time. A
 * request sent before the stop is already in the kernel's buffers, but a saturated machine can
 * starve the event loop for longer than any window of time (that is how requests were lost when
 * the drain waited by the clock alone), and Node accepts one connection from the backlog per
 * turn. So the listener stays open until a whole turn has passed without a connection to accept
 * (the backlog is empty), and idle connections are closed only after the turns that read what
 * the accepted ones had sent. Counting turns makes the order of events the guarantee.
 */
const READ_TURNS = 2;

/**
 * Node's default listen backlog: after this many turns every connection that was queued when
 * the drain began has been accepted, even if new ones keep arriving (those are new connections,
 * which the drain refuses).
 */
const BACKLOG = 511;

async function ioTurns(turns: number): Promise<void> {
  // An immediate runs in the check phase, right after the poll phase, and one scheduled from
  // the check phase runs in the next turn: so each await here spans one poll for I/O.
  for (let i = 0; i < turns; i++) {
    await nextTurn();
  }
}

/** Both a time and a number of turns of the event loop: whichever is reached last. */
async function atLeast(ms: number, turns: number): Promise<void> {
  await Promise.all([sleep(ms), ioTurns(turns)]);
}

/** Accepts the backlog: returns once a turn accepted no connection, after `BACKLOG` turns, or at `deadline`. */
async function acceptBacklog(server: Server, minMs: number, deadline: number): Promise<void> {
  let accepted = 0;
  const count = () => {
    accepted++;
  };
  server.on('connection', count);
  try {
    await sleep(minMs);
    let before = -1;
    for (let turn = 0; turn <= BACKLOG && accepted !== before && Date.now() < deadline; turn++) {
      before = accepted;
      await nextTurn();
    }
  } finally {
    server.off('connection', count);
  }
}

/**
 * Stops accepting connections, then lets every request already sent be read and answered.
 *
 * Node's `http.Server#close()` closes idle keep-alive connections at once, and a connection
 * whose next request is still unread in the kernel's buffer counts as idle: that request was
 * lost to a reset; so were connections still waiting in the listener's backlog. So the backlog
 * is accepted first, until it is empty (every answer now says `Connection: close`), then only the listening socket
 * is closed (net.Server's close). Next the event loop reads what was sent; those requests are
 * answered with `Connection: close` (see `onDraining`), after which Node closes their
 * connection. Then the connections still idle are closed, and again every `pollMs`, until none
 * is left or the deadline passes.
 */
export async function drainHttpServer(server: Server, onDraining: () => void, options: DrainOptions): Promise<void> {
  if (!server.listening) {
    return;
  }
  onDraining();
  await acceptBacklog(server, options.acceptMs, Date.now() + options.deadlineMs);
  let closed = false;
  NetServer.prototype.close.call(server, () => {
    closed = true;
  });
  await atLeast(options.settleMs, READ_TURNS);
  const deadline = Date.now() + options.deadlineMs;
  while (!closed && Date.now() < deadline) {
    server.closeIdleConnections();
    // A connection judged idle a moment ago may have been read since, so the next pass waits
    // for the loop to poll again as well as for the time.
    await atLeast(options.pollMs, 1);
  }
}
