import type { Kysely } from 'kysely';
import type { AuditEntry } from '../../domain/dashboard/dashboard-user.ts';
import type { AuditRepository } from '../../domain/repositories/audit.repository.ts';
import type { Database } from '../schema.ts';

export class KyselyAuditRepository implements AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertAudit(e: AuditEntry): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        id: e.id,
        merchant_id: e.merchantId,
        user_id: e.userId,
        actor: e.actor,
        action: e.action,
        object_type: e.objectType,
        object_id: e.objectId,
        ip: e.ip,
        detail: JSON.stringify(e.detail),
        at: BigInt(e.at),
      })
      .execute();
  }

  async audit(merchantId: string, limit: number, before: { at: number; id: string } | null): Promise<AuditEntry[]> {
    let query = this.db.selectFrom('audit_log').selectAll().where('merchant_id', '=', merchantId);
    if (before) {
      const at = BigInt(before.at);
      query = query.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', before.id)])]));
    }
    const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      merchantId: row.merchant_id,
      userId: row.user_id,
      actor: row.actor,
      action: row.action,
      objectType: row.object_type,
      objectId: row.object_id,
      ip: row.ip,
      detail: JSON.parse(row.detail) as AuditEntry['detail'],
      at: Number(row.at),
    }));
  }
}
