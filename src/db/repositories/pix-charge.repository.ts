import type { Kysely, Selectable } from 'kysely';
import type { PixCharge, PixChargeState } from '../../domain/connectors/pix-charge.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { PixChargeChanges, PixChargeRepository } from '../../domain/repositories/pix-charge.repository.ts';
import type { Database, PixChargesTable } from '../schema.ts';

function toCharge(row: Selectable<PixChargesTable>): PixCharge {
  return {
    orderId: row.order_id,
    connectionId: row.connection_id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    txid: row.txid,
    state: row.state as PixChargeState,
    endToEndId: row.end_to_end_id,
    refundId: row.refund_id,
    nextCheckAt: Number(row.next_check_at),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export class KyselyPixChargeRepository implements PixChargeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(c: PixCharge): Promise<void> {
    await this.db
      .insertInto('pix_charges')
      .values({
        order_id: c.orderId,
        connection_id: c.connectionId,
        merchant_id: c.merchantId,
        mode: c.mode,
        txid: c.txid,
        state: c.state,
        end_to_end_id: c.endToEndId,
        refund_id: c.refundId,
        next_check_at: BigInt(c.nextCheckAt),
        last_error: c.lastError,
        created_at: BigInt(c.createdAt),
        updated_at: BigInt(c.updatedAt),
      })
      .execute();
  }

  async get(orderId: string): Promise<PixCharge | undefined> {
    const row = await this.db.selectFrom('pix_charges').selectAll().where('order_id', '=', orderId).executeTakeFirst();
    return row ? toCharge(row) : undefined;
  }

  async getByTxid(connectionId: string, txid: string): Promise<PixCharge | undefined> {
    const row = await this.db
      .selectFrom('pix_charges')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .where('txid', '=', txid)
      .executeTakeFirst();
    return row ? toCharge(row) : undefined;
  }

  async listDue(now: number, states: readonly PixChargeState[], limit: number): Promise<PixCharge[]> {
    const rows = await this.db
      .selectFrom('pix_charges')
      .selectAll()
      .where('next_check_at', '<=', BigInt(now))
      .where('state', 'in', [...states])
      .orderBy('next_check_at')
      .limit(limit)
      .execute();
    return rows.map(toCharge);
  }

  async claim(orderId: string, expectedNextCheckAt: number, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('pix_charges')
      .set({ next_check_at: BigInt(until) })
      .where('order_id', '=', orderId)
      .where('next_check_at', '=', BigInt(expectedNextCheckAt))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async update(orderId: string, changes: PixChargeChanges, at: number): Promise<void> {
    await this.db
      .updateTable('pix_charges')
      .set({
        updated_at: BigInt(at),
        ...(changes.state === undefined ? {} : { state: changes.state }),
        ...(changes.endToEndId === undefined ? {} : { end_to_end_id: changes.endToEndId }),
        ...(changes.refundId === undefined ? {} : { refund_id: changes.refundId }),
        ...(changes.nextCheckAt === undefined ? {} : { next_check_at: BigInt(changes.nextCheckAt) }),
        ...(changes.lastError === undefined ? {} : { last_error: changes.lastError }),
      })
      .where('order_id', '=', orderId)
      .execute();
  }

  async dueNow(orderId: string): Promise<void> {
    await this.db
      .updateTable('pix_charges')
      .set({ next_check_at: 0n })
      .where('order_id', '=', orderId)
      .where('state', 'in', ['CREATING', 'ACTIVE'])
      .execute();
  }
}
