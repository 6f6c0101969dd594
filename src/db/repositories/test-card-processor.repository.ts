import type { Kysely } from 'kysely';
import type { CardBrand } from '../../domain/payment-methods/card-brand.ts';
import type {
  ProcessorResult,
  StoredCharge,
  StoredToken,
  TestCardOutcome,
} from '../../domain/payment-methods/test-card-charge.ts';
import type { TestProcessorStore } from '../../domain/repositories/test-card-processor.repository.ts';
import type { Database, TestCardChargesTable } from '../schema.ts';
import { PreparedInsert } from './prepared.ts';

// Every card payment records one (see prepared.ts); the first charge under a key is the one.
const INSERT_CHARGE = new PreparedInsert('test_card_charges', (insert) =>
  insert.onConflict((oc) => oc.column('idempotency_key').doNothing()).returningAll(),
);

/** The processor's answer as stored: JSON, with the amount as a decimal string and the date as ISO. */
function encode(result: ProcessorResult): string {
  return JSON.stringify({ ...result, amountMinor: result.amountMinor.toString(), createdAt: result.createdAt });
}

function decode(text: string): ProcessorResult {
  const raw = JSON.parse(text) as ProcessorResult & { amountMinor: string; createdAt: string };
  return { ...raw, amountMinor: BigInt(raw.amountMinor), createdAt: new Date(raw.createdAt) };
}

function toCharge(row: TestCardChargesTable): StoredCharge {
  return {
    idempotencyKey: row.idempotency_key,
    fingerprint: row.fingerprint,
    result: decode(row.result),
    approveAtMs: row.approve_at === null ? null : Number(row.approve_at),
    refunded: Number(row.refunded) === 1,
  };
}

/** Saved-card tokens a process keeps in memory: a renewal run's worth, about 3 MB. */
const TOKENS_KEPT = 20_000;

/**
 * Test mode's card processor keeps its records in tables of its own (migration 0013), written
 * outside Cobro's transactions as a processor's would be: see TestProcessorStore.
 */
export class KyselyTestProcessorStore implements TestProcessorStore {
  /**
   * Tokens never change once stored (nothing updates or deletes one), so the ones this process
   * has read are kept, as a processor keeps its vault in memory: a renewal run charges the same
   * saved cards again and again. Misses are not kept (another process may store the token next).
   */
  private readonly tokens = new Map<string, StoredToken>();

  /** `db` reads committed data; `write` runs a write of one statement (OpenDatabase's writeAlone). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly write: <T>(fn: (db: Kysely<Database>) => Promise<T>) => Promise<T>,
  ) {}

  async putToken(token: string, stored: StoredToken): Promise<void> {
    await this.write((db) =>
      db
        .insertInto('test_card_tokens')
        .values({
          token,
          brand: stored.brand,
          last4: stored.last4,
          exp_month: BigInt(stored.expMonth),
          exp_year: BigInt(stored.expYear),
          outcome: stored.outcome,
          created_at: BigInt(Date.now()),
        })
        .execute(),
    );
  }

  async getToken(token: string): Promise<StoredToken | undefined> {
    const known = this.tokens.get(token);
    if (known) {
      return { ...known };
    }
    const row = await this.db.selectFrom('test_card_tokens').selectAll().where('token', '=', token).executeTakeFirst();
    if (!row) {
      return undefined;
    }
    const stored: StoredToken = {
      brand: row.brand as CardBrand,
      last4: row.last4,
      expMonth: Number(row.exp_month),
      expYear: Number(row.exp_year),
      outcome: row.outcome as TestCardOutcome,
    };
    if (this.tokens.size >= TOKENS_KEPT) {
      // The oldest read goes first (a Map iterates in insertion order).
      this.tokens.delete(this.tokens.keys().next().value as string);
    }
    this.tokens.set(token, stored);
    return { ...stored };
  }

  async putCharge(charge: StoredCharge): Promise<StoredCharge> {
    const kept = await this.write(
      async (db) =>
        // A later charge under the same key is dropped and gets the first one back.
        (await INSERT_CHARGE.first(db, {
          charge_id: charge.result.chargeId,
          idempotency_key: charge.idempotencyKey,
          fingerprint: charge.fingerprint,
          result: encode(charge.result),
          approve_at: charge.approveAtMs === null ? null : BigInt(charge.approveAtMs),
          refunded: charge.refunded ? 1n : 0n,
          created_at: BigInt(charge.result.createdAt.getTime()),
        })) ??
        db
          .selectFrom('test_card_charges')
          .selectAll()
          .where('idempotency_key', '=', charge.idempotencyKey)
          .executeTakeFirst(),
    );
    if (!kept) {
      throw new Error(`test card processor: no charge under key ${charge.idempotencyKey} after recording one`);
    }
    return toCharge(kept);
  }

  async getCharge(chargeId: string): Promise<StoredCharge | undefined> {
    const row = await this.db
      .selectFrom('test_card_charges')
      .selectAll()
      .where('charge_id', '=', chargeId)
      .executeTakeFirst();
    return row && toCharge(row);
  }

  async settle(chargeId: string, result: ProcessorResult): Promise<void> {
    await this.write((db) =>
      db
        .updateTable('test_card_charges')
        .set({ result: encode(result), approve_at: null })
        .where('charge_id', '=', chargeId)
        .execute(),
    );
  }

  async markRefunded(chargeId: string): Promise<boolean> {
    const done = await this.write((db) =>
      db
        .updateTable('test_card_charges')
        .set({ refunded: 1n })
        .where('charge_id', '=', chargeId)
        .where('refunded', '=', 0n)
        .executeTakeFirst(),
    );
    return Number(done.numUpdatedRows) === 1;
  }

  async listCharges(): Promise<StoredCharge[]> {
    const rows = await this.db
      .selectFrom('test_card_charges')
      .selectAll()
      .orderBy('created_at')
      .orderBy('charge_id')
      .execute();
    return rows.map(toCharge);
  }
}
