import type { Kysely, Selectable } from 'kysely';
import type {
  CardDispute,
  CardRefund,
  CardRefundSource,
  CardRefundStatus,
} from '../../domain/connectors/card-refund.ts';
import type { ConnectorProvider } from '../../domain/connectors/connection.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type {
  CardDisputeRepository,
  CardRefundChanges,
  CardRefundRepository,
} from '../../domain/repositories/card-refund.repository.ts';
import type { CardDisputesTable, CardRefundsTable, Database } from '../schema.ts';

function toRefund(row: Selectable<CardRefundsTable>): CardRefund {
  return {
    orderId: row.order_id,
    connectionId: row.connection_id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    provider: row.provider as ConnectorProvider,
    refundId: row.refund_id,
    status: row.status as CardRefundStatus,
    source: row.source as CardRefundSource,
    nextCheckAt: Number(row.next_check_at),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toDispute(row: Selectable<CardDisputesTable>): CardDispute {
  return {
    provider: row.provider as ConnectorProvider,
    disputeId: row.dispute_id,
    orderId: row.order_id,
    merchantId: row.merchant_id,
    mode: row.mode as Mode,
    reason: row.reason,
    status: row.status,
    amountMinor: row.amount_minor === null ? null : BigInt(row.amount_minor),
    currency: row.currency,
    evidenceDueBy: row.evidence_due_by === null ? null : Number(row.evidence_due_by),
    createdAt: Number(row.created_at),
  };
}

export class KyselyCardRefundRepository implements CardRefundRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(r: CardRefund): Promise<boolean> {
    const result = await this.db
      .insertInto('card_refunds')
      .values({
        order_id: r.orderId,
        connection_id: r.connectionId,
        merchant_id: r.merchantId,
        mode: r.mode,
        provider: r.provider,
        refund_id: r.refundId,
        status: r.status,
        source: r.source,
        next_check_at: BigInt(r.nextCheckAt),
        last_error: r.lastError,
        created_at: BigInt(r.createdAt),
        updated_at: BigInt(r.updatedAt),
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async get(orderId: string): Promise<CardRefund | undefined> {
    const row = await this.db.selectFrom('card_refunds').selectAll().where('order_id', '=', orderId).executeTakeFirst();
    return row ? toRefund(row) : undefined;
  }

  async listDue(now: number, status: CardRefundStatus, limit: number): Promise<CardRefund[]> {
    const rows = await this.db
      .selectFrom('card_refunds')
      .selectAll()
      .where('next_check_at', '<=', BigInt(now))
      .where('status', '=', status)
      .orderBy('next_check_at')
      .limit(limit)
      .execute();
    return rows.map(toRefund);
  }

  async update(orderId: string, from: CardRefundStatus, changes: CardRefundChanges, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('card_refunds')
      .set({
        updated_at: BigInt(at),
        ...(changes.refundId === undefined ? {} : { refund_id: changes.refundId }),
        ...(changes.status === undefined ? {} : { status: changes.status }),
        ...(changes.nextCheckAt === undefined ? {} : { next_check_at: BigInt(changes.nextCheckAt) }),
        ...(changes.lastError === undefined ? {} : { last_error: changes.lastError }),
      })
      .where('order_id', '=', orderId)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

export class KyselyCardDisputeRepository implements CardDisputeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(d: CardDispute): Promise<boolean> {
    const result = await this.db
      .insertInto('card_disputes')
      .values({
        provider: d.provider,
        dispute_id: d.disputeId,
        order_id: d.orderId,
        merchant_id: d.merchantId,
        mode: d.mode,
        reason: d.reason,
        status: d.status,
        amount_minor: d.amountMinor,
        currency: d.currency,
        evidence_due_by: d.evidenceDueBy === null ? null : BigInt(d.evidenceDueBy),
        created_at: BigInt(d.createdAt),
      })
      .onConflict((oc) => oc.columns(['provider', 'dispute_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async listForOrder(orderId: string): Promise<CardDispute[]> {
    const rows = await this.db
      .selectFrom('card_disputes')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .execute();
    return rows.map(toDispute);
  }
}
