import type { Kysely } from 'kysely';
import type {
  NamedRef,
  PaymentMethod,
  PaymentMethodStatus,
  PaymentMethodType,
} from '../../domain/payment-methods/payment-method.ts';
import type { PaymentMethodRepository } from '../../domain/repositories/payment-method.repository.ts';
import type { Database, PaymentMethodsTable } from '../schema.ts';

function ref(id: string | null, name: string | null): NamedRef | null {
  return id !== null && name !== null ? { id, name } : null;
}

function toPaymentMethod(row: PaymentMethodsTable): PaymentMethod {
  return {
    id: row.id,
    status: row.status as PaymentMethodStatus,
    type: row.type as PaymentMethodType,
    countryId: row.country_id,
    currency: row.currency,
    minAmountMinor: BigInt(row.min_amount_minor),
    maxAmountMinor: BigInt(row.max_amount_minor),
    network: ref(row.network_id, row.network_name),
    cashProvider: ref(row.cash_provider_id, row.cash_provider_name),
    cryptoProvider: ref(row.crypto_provider_id, row.crypto_provider_name),
    allowRecurrentPayment: Number(row.allow_recurrent_payment) === 1,
  };
}

export class KyselyPaymentMethodRepository implements PaymentMethodRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<PaymentMethod[]> {
    const rows = await this.db.selectFrom('payment_methods').selectAll().orderBy('position').orderBy('id').execute();
    return rows.map(toPaymentMethod);
  }

  async upsertCatalog(methods: readonly PaymentMethod[], positions: readonly number[]): Promise<void> {
    for (const [i, m] of methods.entries()) {
      const values = {
        type: m.type,
        country_id: m.countryId,
        currency: m.currency,
        min_amount_minor: m.minAmountMinor,
        max_amount_minor: m.maxAmountMinor,
        network_id: m.network?.id ?? null,
        network_name: m.network?.name ?? null,
        cash_provider_id: m.cashProvider?.id ?? null,
        cash_provider_name: m.cashProvider?.name ?? null,
        crypto_provider_id: m.cryptoProvider?.id ?? null,
        crypto_provider_name: m.cryptoProvider?.name ?? null,
        allow_recurrent_payment: m.allowRecurrentPayment ? 1n : 0n,
        position: BigInt(positions[i] ?? i),
      };
      // The operator's status choice survives restarts: only the descriptive columns are refreshed.
      await this.db
        .insertInto('payment_methods')
        .values({ id: m.id, status: m.status, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    }
  }
}
