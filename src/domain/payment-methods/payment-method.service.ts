import type { CurrencyTable } from '../currencies/currency.ts';
import { AppError } from '../shared/errors.ts';
import { decimalToMinor, parseDecimal } from '../shared/money.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { CatalogEntry } from './catalog.ts';
import type { PaymentMethod, PaymentMethodType } from './payment-method.ts';

export type PaymentMethodFilter = {
  type?: PaymentMethodType;
  currency?: string;
  countryId?: string;
  /** Minor units of the method's own currency. */
  amount?: number;
  allowRecurrentPayment?: boolean;
};

/** How long a process trusts its copy of the catalogue before reading it again. */
const CATALOG_TTL_MS = 5_000;

export class PaymentMethodService {
  private cache: { at: number; methods: PaymentMethod[] } | null = null;
  /** What the catalogue last read was, and a number that changes whenever that does. */
  private content = { text: '', version: 0 };

  constructor(
    private readonly uow: UnitOfWork,
    private readonly currencies: CurrencyTable,
  ) {}

  /**
   * The catalogue changes only by operator action, and a few seconds of staleness there is
   * harmless, while every checkout and every preference creation reads it: so it is cached.
   * The monotonic clock is used on purpose (the test clock must not freeze the cache).
   */
  async all(): Promise<PaymentMethod[]> {
    const now = performance.now();
    if (this.cache && now - this.cache.at < CATALOG_TTL_MS) {
      return this.cache.methods;
    }
    const methods = await this.uow.read.paymentMethods.list();
    this.cache = { at: now, methods };
    const text = JSON.stringify(methods, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
    if (text !== this.content.text) {
      this.content = { text, version: this.content.version + 1 };
    }
    return methods;
  }

  /**
   * A number that changes when the catalogue does (as this process reads it): what is computed
   * from the catalogue alone may be kept until it changes (the list route keeps its answers).
   */
  async version(): Promise<number> {
    await this.all();
    return this.content.version;
  }

  async get(id: string): Promise<PaymentMethod | undefined> {
    return (await this.all()).find((m) => m.id === id);
  }

  async list(filter: PaymentMethodFilter): Promise<PaymentMethod[]> {
    const methods = await this.all();
    return methods.filter((m) => {
      if (filter.type && m.type !== filter.type) {
        return false;
      }
      if (filter.currency && m.currency !== filter.currency) {
        return false;
      }
      if (filter.countryId && m.countryId !== filter.countryId) {
        return false;
      }
      if (filter.allowRecurrentPayment !== undefined && m.allowRecurrentPayment !== filter.allowRecurrentPayment) {
        return false;
      }
      if (filter.amount !== undefined) {
        const currency = this.currencies.get(m.currency);
        const parsed = parseDecimal(String(filter.amount));
        if (!currency || !parsed) {
          return false;
        }
        const minor = decimalToMinor(parsed, currency.decimals);
        if (minor < m.minAmountMinor || minor > m.maxAmountMinor) {
          return false;
        }
      }
      return true;
    });
  }

  /** Writes the built-in catalogue (insert or update by id) so a fresh install can take payments. */
  async installCatalog(entries: readonly CatalogEntry[]): Promise<void> {
    const methods = entries.map((e) => this.fromEntry(e));
    await this.uow.transaction((repos) =>
      repos.paymentMethods.upsertCatalog(
        methods,
        methods.map((_, i) => i),
      ),
    );
    this.cache = null;
  }

  private fromEntry(entry: CatalogEntry): PaymentMethod {
    const currency = this.currencies.get(entry.currency);
    const min = parseDecimal(entry.min);
    const max = parseDecimal(entry.max);
    if (!currency || !min || !max) {
      throw new AppError('INTERNAL_SERVER_ERROR', [`catalogue entry ${entry.id} is invalid`]);
    }
    return {
      id: entry.id,
      status: 'ENABLED',
      type: entry.type,
      countryId: entry.countryId,
      currency: entry.currency,
      minAmountMinor: decimalToMinor(min, currency.decimals),
      maxAmountMinor: decimalToMinor(max, currency.decimals),
      network: entry.network,
      cashProvider: entry.cashProvider,
      cryptoProvider: entry.cryptoProvider,
      allowRecurrentPayment: entry.allowRecurrentPayment,
    };
  }
}
