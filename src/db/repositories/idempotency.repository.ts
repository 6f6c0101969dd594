import type { Kysely } from 'kysely';
import type { IdempotencyRecord, IdempotencyState } from '../../domain/idempotency/idempotency.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { IdempotencyRepository } from '../../domain/repositories/idempotency.repository.ts';
import type { Database, IdempotencyKeysTable } from '../schema.ts';

function toRow(r: IdempotencyRecord): IdempotencyKeysTable {
  return {
    merchant_id: r.merchantId,
    mode: r.mode,
    key: r.key,
    request_hash: r.requestHash,
    state: r.state,
    response_status: r.responseStatus === null ? null : BigInt(r.responseStatus),
    response_body: r.responseBody,
    locked_until: BigInt(r.lockedUntil),
    created_at: BigInt(r.createdAt),
    expires_at: BigInt(r.expiresAt),
    resource_id: r.resourceId,
  };
}

export class KyselyIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async tryInsert(record: IdempotencyRecord): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotency_keys')
      .values(toRow(record))
      .onConflict((oc) => oc.columns(['merchant_id', 'mode', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async get(merchantId: string, mode: Mode, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) {
      return undefined;
    }
    return {
      merchantId: row.merchant_id,
      mode: row.mode as Mode,
      key: row.key,
      requestHash: row.request_hash,
      state: row.state as IdempotencyState,
      responseStatus: row.response_status === null ? null : Number(row.response_status),
      responseBody: row.response_body,
      lockedUntil: Number(row.locked_until),
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
      resourceId: row.resource_id,
    };
  }

  async replaceStale(record: IdempotencyRecord, now: number): Promise<boolean> {
    const { merchant_id, mode, key, ...rest } = toRow(record);
    const result = await this.db
      .updateTable('idempotency_keys')
      .set(rest)
      .where('merchant_id', '=', merchant_id)
      .where('mode', '=', mode)
      .where('key', '=', key)
      .where((eb) =>
        eb.or([
          eb('expires_at', '<=', BigInt(now)),
          eb.and([eb('state', '=', 'IN_FLIGHT'), eb('locked_until', '<=', BigInt(now)), eb('resource_id', 'is', null)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async takeOverRecoverable(
    merchantId: string,
    mode: Mode,
    key: string,
    now: number,
    lockedUntil: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ locked_until: BigInt(lockedUntil) })
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('key', '=', key)
      .where('state', '=', 'IN_FLIGHT')
      .where('locked_until', '<=', BigInt(now))
      .where('resource_id', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async link(merchantId: string, mode: Mode, key: string, resourceId: string): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ resource_id: resourceId })
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('key', '=', key)
      .where('state', '=', 'IN_FLIGHT')
      .execute();
  }

  async lapseAllLocks(): Promise<number> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ locked_until: 0n })
      .where('state', '=', 'IN_FLIGHT')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async complete(
    merchantId: string,
    mode: Mode,
    key: string,
    status: number,
    body: string,
    expiresAt: number,
  ): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ state: 'DONE', response_status: BigInt(status), response_body: body, expires_at: BigInt(expiresAt) })
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('key', '=', key)
      .execute();
  }

  async release(merchantId: string, mode: Mode, key: string, requestHash: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('key', '=', key)
      .where('state', '=', 'IN_FLIGHT')
      .where('request_hash', '=', requestHash)
      .execute();
  }

  async deleteExpired(now: number, limit: number): Promise<number> {
    const doomed = this.db
      .selectFrom('idempotency_keys')
      .select(['merchant_id', 'mode', 'key'])
      .where('expires_at', '<=', BigInt(now))
      .limit(limit);
    const rows = await doomed.execute();
    let n = 0;
    for (const r of rows) {
      await this.db
        .deleteFrom('idempotency_keys')
        .where('merchant_id', '=', r.merchant_id)
        .where('mode', '=', r.mode)
        .where('key', '=', r.key)
        .where('expires_at', '<=', BigInt(now))
        .execute();
      n++;
    }
    return n;
  }
}
