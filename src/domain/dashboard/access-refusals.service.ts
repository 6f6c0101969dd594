import { keyRef } from '../merchants/credentials.ts';
import type { Mode } from '../merchants/merchant.ts';
import type { OwnedObjectType } from '../repositories/object-owner.repository.ts';
import type { Clock } from '../shared/clock.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { Actor } from './audit.ts';
import { audit } from './audit.ts';

/**
 * Why a signed-in attempt was refused: the role lacks the permission, the form's CSRF check
 * failed, or the object belongs to another merchant (tenancy) or to the other mode.
 */
export type RefusalReason = 'role' | 'csrf' | 'tenancy' | 'mode';
export const REFUSAL_REASONS: readonly RefusalReason[] = ['role', 'csrf', 'tenancy', 'mode'];

/** The audit action of every refused attempt. */
export const ACCESS_DENIED = 'access.denied';

export type Refusal = {
  reason: RefusalReason;
  /** What was attempted: the route's permission (`payments.write`), or `csrf`, `tenancy`, `mode`. */
  attempted: string;
  objectType: string | null;
  objectId: string | null;
  method: string;
  /** The request's path without its query string (signed-in routes only: their paths carry no secrets). */
  path: string;
};

/** Kinds of object whose ids the dashboard's paths carry and whose owner can be found. */
export type LocatableType = OwnedObjectType | 'api_key';

/** At most this many entries per merchant log, user and reason in a minute; the rest are counted. */
export const REFUSAL_ENTRIES_PER_MINUTE = 10;
const WINDOW_MS = 60_000;
/** Beyond this many remembered windows, the ones with nothing left to tell are forgotten. */
const MAX_WINDOWS = 10_000;

type Window = { start: number; written: number; suppressed: number };

/**
 * Refused privileged attempts in the dashboard, as audit entries owners see. Repeated refusals
 * are rate-limited: per merchant log, user and reason, the first REFUSAL_ENTRIES_PER_MINUTE
 * in a minute are written; the others are counted and the next entry written carries that
 * count (`suppressed`). The windows are kept in this process's memory.
 */
export class AccessRefusalService {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly perMinute = REFUSAL_ENTRIES_PER_MINUTE,
  ) {}

  /**
   * Writes the refusal to `merchantId`'s audit log, unless this user's refusals for this reason
   * already filled the minute's allowance; returns whether an entry was written.
   */
  async record(actor: Actor, merchantId: string, refusal: Refusal): Promise<boolean> {
    const now = this.clock.now().getTime();
    const key = `${merchantId} ${actor.userId ?? actor.label} ${refusal.reason}`;
    let window = this.windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, written: 0, suppressed: window?.suppressed ?? 0 };
      this.remember(key, window, now);
    }
    if (window.written >= this.perMinute) {
      window.suppressed += 1;
      return false;
    }
    window.written += 1;
    const suppressed = window.suppressed;
    window.suppressed = 0;
    await this.uow.transaction((repos) =>
      audit(
        repos,
        actor,
        {
          merchantId,
          action: ACCESS_DENIED,
          objectType: refusal.objectType ?? 'page',
          objectId: refusal.objectId,
          detail: {
            reason: refusal.reason,
            attempted: refusal.attempted,
            method: refusal.method,
            path: refusal.path,
            ...(suppressed > 0 ? { suppressed } : {}),
          },
        },
        now,
      ),
    );
    return true;
  }

  /**
   * Whether an id that `merchantId` could not find in `mode` belongs to another merchant
   * (`tenancy`, with that merchant) or to the merchant's other mode (`mode`); null when it
   * exists nowhere else. One lookup by primary key; API keys (addressed by a digest) are
   * looked for in the merchant's other mode only.
   */
  async misplaced(
    type: LocatableType,
    id: string,
    merchantId: string,
    mode: Mode,
  ): Promise<{ reason: 'tenancy' | 'mode'; ownerId: string } | null> {
    if (type === 'api_key') {
      const other: Mode = mode === 'live' ? 'test' : 'live';
      const keys = await this.uow.read.apiKeys.list(merchantId, other);
      return keys.some((k) => keyRef(k.key) === id) ? { reason: 'mode', ownerId: merchantId } : null;
    }
    const owner = await this.uow.read.objectOwners.ownerOf(type, id);
    if (!owner) {
      return null;
    }
    if (owner.merchantId !== merchantId) {
      return { reason: 'tenancy', ownerId: owner.merchantId };
    }
    return owner.mode !== mode ? { reason: 'mode', ownerId: merchantId } : null;
  }

  private remember(key: string, window: Window, now: number): void {
    if (this.windows.size >= MAX_WINDOWS) {
      for (const [k, w] of this.windows) {
        if (w.suppressed === 0 && now - w.start >= WINDOW_MS) {
          this.windows.delete(k);
        }
      }
    }
    this.windows.set(key, window);
  }
}
