import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_create_foundation.ts';
import * as m0002 from './0002_create_payment_orders.ts';
import * as m0003 from './0003_create_webhooks.ts';
import * as m0004 from './0004_create_recurrent_payments.ts';
import * as m0005 from './0005_plan_versions_and_saved_cards.ts';

/** Migrations in name order; bundled statically so no file-system scan is needed at start. */
export const migrationProvider: MigrationProvider = {
  getMigrations: async (): Promise<Record<string, Migration>> => ({
    '0001_create_foundation': m0001,
    '0002_create_payment_orders': m0002,
    '0003_create_webhooks': m0003,
    '0004_create_recurrent_payments': m0004,
    '0005_plan_versions_and_saved_cards': m0005,
  }),
};
