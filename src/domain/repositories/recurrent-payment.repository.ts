import type { Mode } from '../merchants/merchant.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { RecurrentPaymentStatus } from '../subscriptions/recurrent-payment.status.ts';
import type {
  RecurrentPayment,
  RecurrentPaymentChanges,
  RecurrentPaymentFilter,
} from '../subscriptions/recurrent-payment.ts';

export interface RecurrentPaymentRepository {
  insert(r: RecurrentPayment): Promise<void>;
  get(merchantId: string, mode: Mode, id: string): Promise<RecurrentPayment | undefined>;
  getById(id: string): Promise<RecurrentPayment | undefined>;
  getByPreference(preferenceId: string): Promise<RecurrentPayment | undefined>;
  list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: RecurrentPaymentFilter,
  ): Promise<Page<RecurrentPayment>>;
  /**
   * Compare-and-set on status and sequence: applies `changes` (and `to`, sequence + 1) only if
   * nobody changed the row since it was read. Returns the new row, or undefined.
   */
  update(
    current: Pick<RecurrentPayment, 'id' | 'status' | 'sequence'>,
    to: RecurrentPaymentStatus,
    changes: RecurrentPaymentChanges,
    at: number,
  ): Promise<RecurrentPayment | undefined>;
  /** Subscriptions in `statuses` whose next payment date is at or before `before`. */
  listDue(statuses: readonly RecurrentPaymentStatus[], before: number, limit: number): Promise<RecurrentPayment[]>;
  listByStatus(statuses: readonly RecurrentPaymentStatus[], limit: number): Promise<RecurrentPayment[]>;
}
