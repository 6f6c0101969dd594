import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export type DrainOptions = {
  /** How long connections queued in the listener's backlog get to be accepted before it closes. */
  acceptMs: number;
  /** How long the requests already sent get to be read before idle connections are closed. */
  settleMs: number;
  /** How often connections that went idle since are closed. */
  pollMs: number;
  /** When to stop waiting for connections that stay busy. */
  deadlineMs: number;
};

/**
 * Stops accepting connections, then lets every request already sent be read and answered.
 *
 * Node's `http.Server#close()` closes idle keep-alive connections at once, and a connection
 * whose next request is still unread in the kernel's buffer counts as idle: that request was
 * lost to a reset; so were connections still waiting in the listener's backlog. So the backlog
 * is accepted for `acceptMs` first (every answer now says `Connection: close`), then only the
 * listening socket is closed (net.Server's close). For
 * `settleMs` the event loop reads what was sent; those requests are answered with
 * `Connection: close` (see `onDraining`), after which Node closes their connection. Then the
 * connections still idle are closed, and again every `pollMs`, until none is left or the
 * deadline passes.
 */
export async function drainHttpServer(server: Server, onDraining: () => void, options: DrainOptions): Promise<void> {
  if (!server.listening) {
    return;
  }
  onDraining();
  // Connections still in the kernel's backlog carry requests sent before the stop, and closing
  // the listener would reset them. Accepting goes on for a moment first: one or two turns of
  // the event loop were not enough under load (a busy loop reaches the listener late).
  await sleep(options.acceptMs);
  let closed = false;
  NetServer.prototype.close.call(server, () => {
    closed = true;
  });
  await sleep(options.settleMs);
  const deadline = Date.now() + options.deadlineMs;
  while (!closed && Date.now() < deadline) {
    server.closeIdleConnections();
    await sleep(options.pollMs);
  }
}
