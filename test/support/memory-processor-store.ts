import type { ProcessorResult, StoredCharge, StoredToken } from '../../src/domain/payment-methods/test-card-charge.ts';
import type { TestProcessorStore } from '../../src/domain/repositories/test-card-processor.repository.ts';

/** The test card processor's store, in memory, for unit tests that need no database. */
export class MemoryProcessorStore implements TestProcessorStore {
  private readonly tokens = new Map<string, StoredToken>();
  private readonly charges = new Map<string, StoredCharge>();
  private readonly byKey = new Map<string, StoredCharge>();

  async putToken(token: string, stored: StoredToken): Promise<void> {
    this.tokens.set(token, { ...stored });
  }
  async getToken(token: string): Promise<StoredToken | undefined> {
    return this.tokens.get(token);
  }
  async putCharge(charge: StoredCharge): Promise<StoredCharge> {
    const kept = this.byKey.get(charge.idempotencyKey);
    if (kept) {
      return structuredClone(kept);
    }
    const copy = structuredClone(charge);
    this.byKey.set(charge.idempotencyKey, copy);
    this.charges.set(charge.result.chargeId, copy);
    return structuredClone(copy);
  }
  async getCharge(chargeId: string): Promise<StoredCharge | undefined> {
    const found = this.charges.get(chargeId);
    return found && structuredClone(found);
  }
  async settle(chargeId: string, result: ProcessorResult): Promise<void> {
    const found = this.charges.get(chargeId);
    if (found) {
      found.result = structuredClone(result);
      found.approveAtMs = null;
    }
  }
  async markRefunded(chargeId: string): Promise<boolean> {
    const found = this.charges.get(chargeId);
    if (!found || found.refunded) {
      return false;
    }
    found.refunded = true;
    return true;
  }
  async listCharges(): Promise<StoredCharge[]> {
    return [...this.charges.values()].map((c) => structuredClone(c));
  }
}
