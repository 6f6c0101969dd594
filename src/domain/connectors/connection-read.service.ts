import type { Mode } from '../merchants/merchant.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { ConnectionView, ShownConnection } from './connection.ts';
import { CARD_PROVIDERS, maskSecret, viewOf } from './connection.ts';
import type { ConnectorAccess } from './connector-access.ts';

/** A merchant's processor connections as they may be shown: never a secret, a card key only masked. */
export class ConnectionReadService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly access: ConnectorAccess,
    private readonly publicUrl: string,
  ) {}

  /** Every connection of the merchant, both modes (`connect show`). */
  async list(merchantId: string): Promise<ConnectionView[]> {
    if (!(await this.uow.read.merchants.get(merchantId))) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
    }
    const rows = await this.uow.read.connections.listConnections(merchantId);
    return rows.map((c) => viewOf(c, this.publicUrl));
  }

  /**
   * The merchant's connections in `mode` as the dashboard shows them: a card processor's secret
   * key masked (an API Pix connection's sealed secrets are not a key, and show nothing).
   */
  async shown(merchantId: string, mode: Mode): Promise<ShownConnection[]> {
    const rows = await this.uow.read.connections.listConnections(merchantId);
    return rows
      .filter((c) => c.mode === mode)
      .map((c) => {
        const key = CARD_PROVIDERS.includes(c.provider) ? this.access.openSecretKey(c) : null;
        return { ...viewOf(c, this.publicUrl), secretKeyMasked: key === null ? null : maskSecret(key) };
      });
  }
}
