import type { Mode } from '../merchants/merchant.ts';
import type { PaymentOrderCore } from '../payment-orders/payment-order.core.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import type { PixCharges } from '../payment-orders/pix-charges.port.ts';
import type { PixChargeChanges } from '../repositories/pix-charge.repository.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import { toWireTime } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { ConnectorError } from './card-connector.ts';
import type { Connection } from './connection.ts';
import type { ConnectorAccess } from './connector-access.ts';
import type { PixCharge, PixChargeState } from './pix-charge.ts';
import { NO_CHECK, PIX_CHARGE_OPEN_STATES, pixRefundId, pixTxid } from './pix-charge.ts';
import type { PixAccess, PixChargeView, PixConnector } from './pix-connector.ts';

export type PixChargeOptions = {
  /** How often an open charge is asked about (a lost notification still settles within a minute). */
  checkEveryMs: number;
  /** How soon a charge is tried again after the PSP failed (creating, removing). */
  retryAfterMs: number;
  /** How long one run holds a charge it works on against another worker. */
  leaseMs: number;
  /** Charges looked at per run at most. */
  batch: number;
};

export const DEFAULT_PIX_CHARGE_OPTIONS: PixChargeOptions = {
  checkEveryMs: 20_000,
  retryAfterMs: 5_000,
  leaseMs: 120_000,
  batch: 100,
};

/** A notification names at most this many charges Cobro checks; more is not one PSP's batch. */
const MAX_CHECKED_PER_NOTIFICATION = 20;

/**
 * What a notification led to, per Pix it listed:
 * - `closed`: the charge is CONCLUIDA for its full amount and the order closed (or was recorded paid late);
 * - `not_concluded`: the PSP says the charge is not paid (a notification that is not the PSP's, or early);
 * - `partial`, `mismatch`: paid, but not the order's amount: recorded, not settled;
 * - `order_not_open`: the order was already settled or ended;
 * - `check_failed`: the PSP could not be asked now; the pix-sync job will.
 */
export type PixCheckOutcome = 'closed' | 'not_concluded' | 'partial' | 'mismatch' | 'order_not_open' | 'check_failed';

type Confirm = (order: PaymentOrder, receivedMinor: bigint) => Promise<PaymentOrder>;

/**
 * PIX orders of merchants with an API Pix connection (INTERFACE §11.2): each is a charge (`cob`)
 * at the merchant's PSP, under a txid fixed by the order. The order and its charge record are
 * written first, in one transaction; the charge is then put at the PSP, and its copy-and-paste
 * code stored on the order. A crash between the two leaves the record CREATING, and the same txid
 * is put again (the PSP answers the same charge), never a second one.
 *
 * An order is settled only when `GET /cob/{txid}` says CONCLUIDA with a Pix of the charge's full
 * amount: a notification only makes Cobro ask, and so does the pix-sync job for every open
 * charge. An order that ends unpaid has its charge removed at the PSP; a payment the PSP took
 * just before that is recorded as paid late. Refunds are `devolucao`s of the Pix that paid.
 */
export class PixChargeService implements PixCharges {
  constructor(
    private readonly uow: UnitOfWork,
    /** The system's clock: the PSP lives in real time (test clocks move only orders). */
    private readonly clock: Clock,
    private readonly connectors: ConnectorAccess,
    private readonly core: PaymentOrderCore,
    /** Records money received on an order: closes it, or records it UNDERPAID or PAID_LATE (PaymentOrderMoveService.confirm). */
    private readonly confirm: Confirm,
    private readonly options: PixChargeOptions = DEFAULT_PIX_CHARGE_OPTIONS,
  ) {}

  async connectionFor(merchantId: string, mode: Mode): Promise<string | null> {
    const connection = await this.uow.read.connections.getConnection(merchantId, mode, 'pix');
    return connection?.id ?? null;
  }

  async record(repos: Repositories, order: PaymentOrder, connectionId: string, _now: number): Promise<void> {
    const at = this.clock.now().getTime();
    await repos.pixCharges.insert({
      orderId: order.id,
      connectionId,
      merchantId: order.merchantId,
      mode: order.mode,
      txid: pixTxid(order.id),
      state: 'CREATING',
      endToEndId: null,
      refundId: null,
      // Due at once: if the process dies before `create`, the next run of the job makes it.
      nextCheckAt: at,
      lastError: null,
      createdAt: at,
      updatedAt: at,
    });
  }

  async create(order: PaymentOrder): Promise<PaymentOrder> {
    const charge = await this.uow.read.pixCharges.get(order.id);
    if (charge?.state !== 'CREATING') {
      return order;
    }
    const found = await this.accessOf(charge);
    if (!found) {
      return order;
    }
    try {
      return await this.put(charge, order, found);
    } catch (error) {
      await this.failed(charge, found.connection, error, charge.state);
      return order;
    }
  }

  async refund(order: PaymentOrder): Promise<'REFUNDED' | 'PENDING' | null> {
    const charge = await this.uow.read.pixCharges.get(order.id);
    if (!charge) {
      return null;
    }
    if (charge.state === 'REFUNDING') {
      return 'PENDING';
    }
    if (charge.state === 'REFUNDED') {
      // Done at the PSP before (a process that stopped before moving the order): the order follows now.
      return 'REFUNDED';
    }
    if (charge.state !== 'SETTLED' || !charge.endToEndId) {
      throw new AppError('CONFLICT', [
        `payment order ${order.id} cannot be refunded through the PSP: its charge is ${charge.state}`,
      ]);
    }
    const found = await this.accessOf(charge);
    if (!found) {
      throw new AppError('CONFLICT', [
        `payment order ${order.id} cannot be refunded: the merchant's API Pix connection was removed; refund it at the PSP`,
      ]);
    }
    const refundId = pixRefundId(order.id);
    let outcome: 'REFUNDED' | 'WAIT' | 'FAILED';
    try {
      const refund = await found.connector.refund(found.access, {
        endToEndId: charge.endToEndId,
        refundId,
        amountMinor: order.receivedAmountMinor ?? order.chargedAmountMinor,
      });
      outcome = refund.outcome;
      if (outcome === 'FAILED') {
        throw new AppError('CONFLICT', [
          `payment order cannot be refunded: the PSP did not make the refund (${refund.status})`,
        ]);
      }
    } catch (error) {
      if (error instanceof ConnectorError) {
        throw error.kind === 'UNAVAILABLE'
          ? new AppError('SERVICE_UNAVAILABLE', [`PIX refund: ${error.message}; try again shortly`])
          : new AppError('CONFLICT', [`payment order cannot be refunded: ${error.message}`]);
      }
      throw error;
    }
    const at = this.clock.now().getTime();
    await this.uow.transaction((repos) =>
      repos.pixCharges.update(
        order.id,
        outcome === 'REFUNDED'
          ? { state: 'REFUNDED', refundId, nextCheckAt: NO_CHECK, lastError: null }
          : { state: 'REFUNDING', refundId, nextCheckAt: at + this.options.checkEveryMs, lastError: null },
        at,
      ),
    );
    return outcome === 'REFUNDED' ? 'REFUNDED' : 'PENDING';
  }

  /**
   * A notification the PSP POSTed to a connection's URL (`{webhookUrl}` or `{webhookUrl}/pix`):
   * each charge it names that is this connection's is checked at the PSP. Anything else in it
   * changes nothing. NOT_FOUND for a URL no API Pix connection has.
   */
  async notify(webhookId: string, body: unknown): Promise<{ checked: number; outcomes: PixCheckOutcome[] }> {
    const found = await this.connectors.byWebhookId(webhookId);
    if (found?.connection.provider !== 'pix' || !found.connection.pix) {
      throw new AppError('NOT_FOUND', ['no connection receives notifications at this URL']);
    }
    const { connection } = found;
    const profile = found.connection.pix.profile;
    const at = this.clock.now().getTime();
    await this.uow.transaction((repos) => repos.connections.touchConnection(connection.id, at));
    const read = this.connectors.pix().readNotification(profile, body);
    const outcomes: PixCheckOutcome[] = [];
    const seen = new Set<string>();
    for (const entry of read?.entries ?? []) {
      if (seen.size >= MAX_CHECKED_PER_NOTIFICATION || seen.has(entry.txid)) {
        continue;
      }
      const charge = await this.uow.read.pixCharges.getByTxid(connection.id, entry.txid);
      if (!charge) {
        continue;
      }
      seen.add(entry.txid);
      const outcome = await this.checkNow(charge, connection);
      outcomes.push(outcome);
      if (entry.endToEndId) {
        await this.uow.transaction(async (repos) => {
          // Each Pix is recorded once, with what its first notification led to.
          await repos.connections.insertEvent({
            provider: 'pix',
            eventId: entry.endToEndId as string,
            connectionId: connection.id,
            merchantId: connection.merchantId,
            mode: connection.mode,
            type: 'pix.received',
            objectId: entry.txid,
            outcome,
            receivedAt: at,
          });
        });
      }
    }
    return { checked: seen.size, outcomes };
  }

  /**
   * The pix-sync job: every charge due, moved along — made at the PSP (CREATING), asked about
   * (ACTIVE), removed (REMOVING: its order ended unpaid), its refund followed (REFUNDING). A PSP
   * that fails is tried again later; the others go on.
   */
  async sync(): Promise<number> {
    const now = this.clock.now().getTime();
    const due = await this.uow.read.pixCharges.listDue(now, PIX_CHARGE_OPEN_STATES, this.options.batch);
    let worked = 0;
    const down = new Set<string>();
    for (const charge of due) {
      if (down.has(charge.connectionId)) {
        continue;
      }
      if (!(await this.uow.read.pixCharges.claim(charge.orderId, charge.nextCheckAt, now + this.options.leaseMs))) {
        continue;
      }
      worked++;
      const outcome = await this.step({ ...charge, nextCheckAt: now + this.options.leaseMs });
      if (outcome === 'check_failed') {
        // One failure a run per PSP: its other charges wait for the next run instead of each timing out.
        down.add(charge.connectionId);
      }
    }
    return worked;
  }

  /** Checks one charge now, whatever its schedule (a notification named it). */
  private async checkNow(charge: PixCharge, connection: Connection): Promise<PixCheckOutcome> {
    if (charge.state !== 'ACTIVE' && charge.state !== 'CREATING' && charge.state !== 'REMOVING') {
      return 'order_not_open';
    }
    return this.step(charge, connection);
  }

  /** One move of one charge, by its state and its order's. */
  private async step(charge: PixCharge, known?: Connection): Promise<PixCheckOutcome> {
    const order = await this.uow.read.orders.getById(charge.orderId);
    const found = await this.accessOf(charge, known);
    if (!order || !found) {
      // The order or the connection is gone: nothing left to do with this charge.
      await this.save(charge, { state: 'REMOVED', nextCheckAt: NO_CHECK, lastError: 'no order or no connection' });
      return 'order_not_open';
    }
    try {
      switch (charge.state) {
        case 'CREATING':
          if (order.status === 'OPENED') {
            const made = await this.put(charge, order, found);
            return made.instructions ? 'not_concluded' : 'order_not_open';
          }
          return this.remove(charge, order, found);
        case 'ACTIVE':
          if (order.status === 'OPENED') {
            return this.settle(charge, order, found, await found.connector.getCharge(found.access, charge.txid));
          }
          if (order.status === 'EXPIRED' || order.status === 'REJECTED') {
            return this.remove(charge, order, found);
          }
          await this.save(charge, { state: 'SETTLED', nextCheckAt: NO_CHECK });
          return 'order_not_open';
        case 'REMOVING':
          return this.remove(charge, order, found);
        case 'REFUNDING':
          return this.followRefund(charge, order, found);
        default:
          return 'order_not_open';
      }
    } catch (error) {
      await this.failed(charge, found.connection, error, charge.state);
      return 'check_failed';
    }
  }

  /** `PUT /cob/{txid}` for the order, and its code stored on it. */
  private async put(charge: PixCharge, order: PaymentOrder, found: Found): Promise<PaymentOrder> {
    const orderNow = this.core.now(order);
    const expiresInSeconds = Math.floor((order.expiresAt - orderNow) / 1000);
    if (order.status !== 'OPENED' || expiresInSeconds < 1) {
      // Too late to be paid: nothing to make (the expiry job ends the order).
      await this.save(charge, { state: 'REMOVED', nextCheckAt: NO_CHECK });
      return order;
    }
    if (order.chargedCurrency !== 'BRL') {
      throw new AppError('CONFLICT', [`a PIX charge is in BRL; order ${order.id} charges ${order.chargedCurrency}`]);
    }
    const pixKey = found.connection.pix?.pixKey ?? '';
    const view = await found.connector.createCharge(found.access, {
      txid: charge.txid,
      expiresInSeconds,
      amountMinor: order.chargedAmountMinor,
      pixKey,
      payerMessage: order.title,
    });
    if (view.amountMinor !== order.chargedAmountMinor || !view.pixCopiaECola) {
      throw new ConnectorError(
        'REJECTED',
        `the PSP's charge ${charge.txid} is not the order's (${view.amountMinor} centavos${view.pixCopiaECola ? '' : ', no pixCopiaECola'}; the order charges ${order.chargedAmountMinor})`,
      );
    }
    const instructions: PaymentOrder['instructions'] = {
      type: 'PIX',
      pix_payload: view.pixCopiaECola,
      txid: charge.txid,
      expires_at: toWireTime(new Date(order.expiresAt)),
    };
    const at = this.clock.now().getTime();
    const stored = await this.uow.transaction(async (repos) => {
      const updated = await repos.orders.update(
        order.id,
        'OPENED',
        { instructions, providerRef: charge.txid },
        this.core.now(order),
      );
      const rec =
        updated && order.periodAttempt !== null && order.recurrentPaymentId
          ? await repos.recurrentPayments.getById(order.recurrentPaymentId)
          : undefined;
      if (rec) {
        // A renewal: its notice goes to the payer now that it has the PSP's code, in the code's transaction.
        await this.core.effects.renewalOpened(repos, rec, { ...order, instructions, providerRef: charge.txid });
      }
      await repos.pixCharges.update(
        order.id,
        updated
          ? { state: 'ACTIVE', nextCheckAt: at + this.options.checkEveryMs, lastError: null }
          : // Ended meanwhile: the charge just made is removed on the next run.
            { state: 'REMOVING', nextCheckAt: at, lastError: null },
        at,
      );
      return updated;
    });
    return stored ? { ...order, instructions, providerRef: charge.txid } : order;
  }

  /**
   * What the PSP says of an open order's charge. CONCLUIDA with a Pix of the charge's full amount
   * (and the charge the order's amount) settles it; less is recorded UNDERPAID, never settled.
   */
  private async settle(
    charge: PixCharge,
    order: PaymentOrder,
    found: Found,
    view: PixChargeView,
  ): Promise<PixCheckOutcome> {
    const at = this.clock.now().getTime();
    if (view.outcome === 'WAIT') {
      await this.save(charge, { nextCheckAt: at + this.options.checkEveryMs, lastError: null });
      return 'not_concluded';
    }
    if (view.outcome === 'GONE') {
      // Removed at the PSP (by the PSP, or in its portal): nobody can pay this code any more.
      await this.save(charge, { state: 'REMOVED', nextCheckAt: NO_CHECK, lastError: `the PSP reports ${view.status}` });
      return 'not_concluded';
    }
    const received = view.payments.reduce((sum, p) => sum + p.amountMinor, 0n);
    const full = view.payments.find((p) => p.amountMinor >= view.amountMinor);
    if (view.amountMinor !== order.chargedAmountMinor) {
      const problem = `PIX charge ${charge.txid} at the PSP asks ${view.amountMinor} centavos, but order ${order.id} charges ${order.chargedAmountMinor}; the order was not settled`;
      await this.save(charge, { state: 'MISMATCH', nextCheckAt: NO_CHECK, lastError: problem });
      await this.connectionError(found.connection, problem);
      return 'mismatch';
    }
    if (!full) {
      const problem = `PIX charge ${charge.txid} was concluded with ${received} of ${view.amountMinor} centavos; order ${order.id} was not settled`;
      await this.save(charge, {
        state: 'PARTIAL',
        endToEndId: view.payments[0]?.endToEndId ?? null,
        nextCheckAt: NO_CHECK,
        lastError: problem,
      });
      await this.connectionError(found.connection, problem);
      if (received > 0n && received < order.chargedAmountMinor) {
        await this.confirm(order, received).catch(ignoreConflict);
      }
      return 'partial';
    }
    await this.confirm(order, received).catch(ignoreConflict);
    await this.save(charge, { state: 'SETTLED', endToEndId: full.endToEndId, nextCheckAt: NO_CHECK, lastError: null });
    return 'closed';
  }

  /**
   * `PATCH /cob/{txid}` to REMOVIDA_PELO_USUARIO_RECEBEDOR for an order that ended unpaid. A charge
   * the PSP concluded just before is not lost: it is recorded on the order as paid late.
   */
  private async remove(charge: PixCharge, order: PaymentOrder, found: Found): Promise<PixCheckOutcome> {
    let view: PixChargeView;
    try {
      view = await found.connector.removeCharge(found.access, charge.txid);
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === 'NOT_FOUND') {
        // Never made at the PSP (the order ended before its charge was put): nothing to remove.
        await this.save(charge, { state: 'REMOVED', nextCheckAt: NO_CHECK, lastError: null });
        return 'order_not_open';
      }
      throw error;
    }
    if (view.outcome === 'PAID') {
      return this.settle(charge, order, found, view);
    }
    await this.save(charge, { state: 'REMOVED', nextCheckAt: NO_CHECK, lastError: null });
    return 'order_not_open';
  }

  /** A refund being processed: the order becomes REFUNDED when the PSP reports DEVOLVIDO. */
  private async followRefund(charge: PixCharge, order: PaymentOrder, found: Found): Promise<PixCheckOutcome> {
    if (!charge.endToEndId || !charge.refundId) {
      await this.save(charge, { state: 'SETTLED', nextCheckAt: NO_CHECK, lastError: 'refund without its ids' });
      return 'order_not_open';
    }
    const refund = await found.connector.getRefund(found.access, charge.endToEndId, charge.refundId);
    const at = this.clock.now().getTime();
    if (refund.outcome === 'WAIT') {
      await this.save(charge, { nextCheckAt: at + this.options.checkEveryMs });
      return 'order_not_open';
    }
    if (refund.outcome === 'FAILED') {
      const problem = `the refund of order ${order.id} was not made by the PSP (${refund.status}); the order stays CLOSED`;
      await this.save(charge, { state: 'SETTLED', nextCheckAt: NO_CHECK, lastError: problem });
      await this.connectionError(found.connection, problem);
      return 'order_not_open';
    }
    const now = this.core.now(order);
    await this.uow.transaction(async (repos) => {
      await repos.pixCharges.update(charge.orderId, { state: 'REFUNDED', nextCheckAt: NO_CHECK, lastError: null }, at);
      if (order.status === 'CLOSED') {
        await this.core.moveOrThrow(repos, order, 'REFUNDED', { refundedAt: now }, now, 'refunded');
      }
    });
    return 'order_not_open';
  }

  private async accessOf(charge: PixCharge, known?: Connection): Promise<Found | null> {
    const connection =
      known?.id === charge.connectionId
        ? known
        : await this.uow.read.connections.getConnectionById(charge.connectionId);
    if (!connection?.pix) {
      return null;
    }
    const opened = this.connectors.pixAccessOf(connection);
    return { connection, connector: opened.connector, access: opened.access };
  }

  private async save(charge: PixCharge, changes: PixChargeChanges): Promise<void> {
    const at = this.clock.now().getTime();
    await this.uow.transaction((repos) => repos.pixCharges.update(charge.orderId, changes, at));
  }

  /** A PSP call failed: kept on the charge and the connection, tried again later (an outage sooner than a refusal). */
  private async failed(
    charge: PixCharge,
    connection: Connection,
    error: unknown,
    state: PixChargeState,
  ): Promise<void> {
    if (!(error instanceof ConnectorError) && !(error instanceof AppError)) {
      throw error;
    }
    const at = this.clock.now().getTime();
    const wait = state === 'ACTIVE' || state === 'REFUNDING' ? this.options.checkEveryMs : this.options.retryAfterMs;
    const problem = `PIX charge ${charge.txid}: ${error.message}`;
    await this.uow.transaction(async (repos) => {
      await repos.pixCharges.update(charge.orderId, { nextCheckAt: at + wait, lastError: problem }, at);
      await repos.connections.setConnectionError(connection.id, problem, at);
    });
  }

  private async connectionError(connection: Connection, problem: string): Promise<void> {
    const at = this.clock.now().getTime();
    await this.uow.transaction((repos) => repos.connections.setConnectionError(connection.id, problem, at));
  }
}

type Found = { connection: Connection; connector: PixConnector; access: PixAccess };

/** Moved meanwhile by another worker, or expired and recorded as paid late: both final here. */
function ignoreConflict(error: unknown): void {
  if (!(error instanceof AppError && error.code === 'CONFLICT')) {
    throw error;
  }
}
