import type { Connection, ConnectorEventRecord, ConnectorProvider } from '../connectors/connection.ts';
import type { Mode } from '../merchants/merchant.ts';

/** Merchants' processor connections (one per merchant, mode and provider) and the events they received. */
export interface ProcessorConnectionRepository {
  /** False when the merchant already has a connection of this provider in this mode. */
  insertConnection(connection: Connection): Promise<boolean>;
  getConnection(merchantId: string, mode: Mode, provider: ConnectorProvider): Promise<Connection | undefined>;
  getConnectionByWebhookId(webhookId: string): Promise<Connection | undefined>;
  /** The merchant's connections, live first, then by provider. */
  listConnections(merchantId: string): Promise<Connection[]>;
  /** Whether any connection of these providers exists for the merchant in `mode` (one indexed read). */
  hasConnection(merchantId: string, mode: Mode, providers: readonly ConnectorProvider[]): Promise<boolean>;
  deleteConnection(id: string): Promise<boolean>;
  getConnectionById(id: string): Promise<Connection | undefined>;
  /** What went wrong last with the connection outside an event (a PSP call of a job); null clears it. */
  setConnectionError(id: string, lastError: string | null, at: number): Promise<void>;
  /** A verified event arrived; `lastError`: what went wrong applying it (undefined: leave it as it was). */
  touchConnection(id: string, at: number, lastError?: string | null): Promise<void>;
  /** False when this event id was already recorded (the same event twice). */
  insertEvent(event: ConnectorEventRecord): Promise<boolean>;
  setEventOutcome(provider: ConnectorProvider, eventId: string, outcome: string): Promise<void>;
  /** Failed card tries reported by the processor (payment_intent.payment_failed) for the intents of a checkout's orders. */
  countFailedTries(preferenceId: string): Promise<number>;
  getEvent(provider: ConnectorProvider, eventId: string): Promise<ConnectorEventRecord | undefined>;
}
