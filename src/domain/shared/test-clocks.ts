import type { Mode } from '../merchants/merchant.ts';
import type { Clock } from './clock.ts';
import type { UnitOfWork } from './unit-of-work.ts';

/**
 * Time as each merchant sees it. Live mode reads the base clock. Test mode reads the base
 * clock plus the merchant's offset, moved forward by POST /v1/test_helpers/clock/advance, so
 * expiries, trials and renewals can be tested without waiting. Offsets are kept in the
 * database (they survive restarts) and mirrored in memory, refreshed by `refresh()`.
 */
export class TestClocks {
  private offsets = new Map<string, number>();

  constructor(
    private readonly base: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async refresh(): Promise<void> {
    const rows = await this.uow.read.testClocks.all();
    this.offsets = new Map(rows.map((r) => [r.merchantId, r.offsetMs]));
  }

  /** The base clock (system time in production). */
  get system(): Clock {
    return this.base;
  }

  offsetOf(merchantId: string): number {
    return this.offsets.get(merchantId) ?? 0;
  }

  clockFor(who: { merchantId: string; mode: Mode }): Clock {
    if (who.mode === 'live') {
      return this.base;
    }
    return { now: () => new Date(this.base.now().getTime() + this.offsetOf(who.merchantId)) };
  }

  /** Merchants whose test clock runs ahead, with their offsets. */
  advanced(): { merchantId: string; offsetMs: number }[] {
    return [...this.offsets].filter(([, o]) => o > 0).map(([merchantId, offsetMs]) => ({ merchantId, offsetMs }));
  }

  async advance(merchantId: string, ms: number): Promise<Date> {
    const next = await this.uow.transaction(async (repos) => {
      const offset = (await repos.testClocks.getOffset(merchantId)) + ms;
      await repos.testClocks.setOffset(merchantId, offset);
      return offset;
    });
    this.offsets.set(merchantId, next);
    return new Date(this.base.now().getTime() + next);
  }
}
