import type { ProcessorResult, StoredCharge, StoredToken } from '../payment-methods/test-card-charge.ts';

/**
 * Where the test processor keeps its tokens and charges. A card network outlives the service
 * that calls it: kept in the database (db/repositories/test-card-processor.repository.ts), what
 * it charged survives a crash of Cobro and is seen by every Cobro process, as a real
 * processor's records would be. Unit tests use test/support/memory-processor-store.ts.
 */
export interface TestProcessorStore {
  putToken(token: string, stored: StoredToken): Promise<void>;
  getToken(token: string): Promise<StoredToken | undefined>;
  /** Records `charge` unless its key already has one; returns the charge kept under the key. */
  putCharge(charge: StoredCharge): Promise<StoredCharge>;
  getCharge(chargeId: string): Promise<StoredCharge | undefined>;
  /** A pending charge's settled state. */
  settle(chargeId: string, result: ProcessorResult): Promise<void>;
  /** Marks an approved charge refunded; false if it already was. */
  markRefunded(chargeId: string): Promise<boolean>;
  listCharges(): Promise<StoredCharge[]>;
}
