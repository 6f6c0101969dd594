import { setTimeout as sleep } from 'node:timers/promises';
import type { Schema } from '@cobro/sdk';
import { signatureHeader } from '../domain/webhooks/signing.ts';
import type { ApiClient } from './api-client.ts';
import { CliError } from './api-client.ts';

/**
 * `cobro listen --forward-to URL`: follows the merchant's events through `GET /v1/events` and
 * forwards each one to a local URL, signed exactly as a real delivery (Standard Webhooks headers,
 * the merchant's signing secret), printing one line per event — like `stripe listen`, without a
 * tunnel: the server never has to reach the developer's machine.
 */

export type EventRecord = Schema<'Event'>;

export type ListenOptions = {
  api: ApiClient;
  forwardTo: string;
  /** How often to ask for new events. */
  intervalMs?: number;
  out: (line: string) => void;
  err: (line: string) => void;
  signal: AbortSignal;
};

/** Events commit in about the order of their created_at; this much overlap catches the stragglers. */
const OVERLAP_MS = 10_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 20;
const FORWARD_TIMEOUT_MS = 10_000;

export function parseForwardTo(raw: string | undefined): string {
  if (!raw) {
    throw new CliError('listen needs --forward-to URL, e.g. --forward-to http://localhost:4242/webhooks', 2);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`--forward-to must be an absolute http(s) URL, got "${raw}"`, 2);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`--forward-to must be an absolute http(s) URL, got "${raw}"`, 2);
  }
  return raw;
}

/**
 * Remembers which events were seen, so each is forwarded once. Only events newer than the newest
 * seen, minus an overlap, are looked at; ids older than that are forgotten (memory stays bounded).
 */
class EventCursor {
  private readonly seen = new Map<string, number>();
  private newest: number | null = null;

  constructor(private readonly api: ApiClient) {}

  private horizon(): number | null {
    return this.newest === null ? null : this.newest - OVERLAP_MS;
  }

  /** Unseen events, oldest first (by created_at, then as listed). Marks them seen. */
  async next(): Promise<EventRecord[]> {
    // Nothing seen yet (the first look, or no events so far): the newest event sets the horizon.
    let horizon = this.horizon();
    const fresh: EventRecord[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const body: Schema<'EventPage'> = await this.api.data(
        this.api.sdk.GET('/v1/events', {
          params: { query: { limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) } },
        }),
      );
      let passedHorizon = false;
      for (const e of body.data) {
        const at = Date.parse(e.created_at);
        horizon ??= at - OVERLAP_MS;
        if (at < horizon) {
          passedHorizon = true;
          break;
        }
        if (!this.seen.has(e.id)) {
          fresh.push(e);
        }
      }
      if (passedHorizon || !body.has_more || !body.next_cursor) {
        break;
      }
      cursor = body.next_cursor;
    }
    for (const e of fresh) {
      const at = Date.parse(e.created_at);
      this.seen.set(e.id, at);
      this.newest = this.newest === null ? at : Math.max(this.newest, at);
    }
    const keepAfter = (this.horizon() ?? 0) - OVERLAP_MS;
    for (const [id, at] of this.seen) {
      if (at < keepAfter) {
        this.seen.delete(id);
      }
    }
    // Oldest first: by time, and within one second by each object's own sequence (OPENED before CLOSED).
    return fresh
      .reverse()
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.sequence - b.sequence);
  }
}

/** POSTs one event to the local URL with the headers of a real delivery; returns the answer's status or an error. */
export async function forwardEvent(
  forwardTo: string,
  secret: string,
  event: EventRecord,
): Promise<{ status: number | null; error: string | null }> {
  const body = JSON.stringify(event.data);
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(forwardTo, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Cobro-CLI-listen/1.0',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader([secret], event.id, timestamp, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return { status: res.status, error: null };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { status: null, error: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

export async function listen(options: ListenOptions): Promise<void> {
  const { api, forwardTo, out, err, signal } = options;
  const intervalMs = options.intervalMs ?? 1000;
  const secretOf = async () => (await api.data(api.sdk.GET('/v1/webhook_settings'))).signing_secret;
  let secret = await secretOf();
  const cursor = new EventCursor(api);
  // Everything that happened before now is history, not news.
  await cursor.next();
  const shownSecret = api.apiKey.startsWith('ck_test_') ? secret : 'the signing_secret of GET /v1/webhook_settings';
  err(`Ready! Forwarding events from ${api.apiUrl} to ${forwardTo}`);
  err(`Deliveries are signed with ${shownSecret} (Standard Webhooks). Press Ctrl-C to stop.`);
  let failures = 0;
  while (!signal.aborted) {
    try {
      await sleep(failures === 0 ? intervalMs : Math.min(intervalMs * 2 ** failures, 10_000), undefined, { signal });
    } catch {
      break;
    }
    try {
      const events = await cursor.next();
      if (events.length > 0) {
        // The secret may have been rotated since the last batch.
        secret = await secretOf();
      }
      for (const event of events) {
        const result = await forwardEvent(forwardTo, secret, event);
        const answer = result.status === null ? `[ERR] ${result.error}` : `[${result.status}]`;
        out(`${event.created_at}  ${event.event_type}  ${event.entity_id}  ${answer} POST ${forwardTo} [${event.id}]`);
      }
      failures = 0;
    } catch (error) {
      failures++;
      err(`cobro listen: ${(error as Error).message} (retrying)`);
    }
  }
}
