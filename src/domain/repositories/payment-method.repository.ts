import type { PaymentMethod } from '../payment-methods/payment-method.ts';

export interface PaymentMethodRepository {
  /** Every method, in catalogue order. The catalogue is small and global (not per merchant). */
  list(): Promise<PaymentMethod[]>;
  upsertCatalog(methods: readonly PaymentMethod[], positions: readonly number[]): Promise<void>;
}
