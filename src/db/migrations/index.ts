import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_create_foundation.ts';
import * as m0002 from './0002_create_payment_orders.ts';
import * as m0003 from './0003_create_webhooks.ts';
import * as m0004 from './0004_create_recurrent_payments.ts';
import * as m0005 from './0005_plan_versions_and_saved_cards.ts';
import * as m0006 from './0006_dashboard_users.ts';
import * as m0007 from './0007_dashboard_stats_indexes.ts';
import * as m0008 from './0008_merchant_logos.ts';
import * as m0009 from './0009_api_key_names.ts';
import * as m0010 from './0010_dashboard_filter_indexes.ts';
import * as m0011 from './0011_dashboard_days.ts';
import * as m0012 from './0012_idempotency_recovery_point.ts';
import * as m0013 from './0013_test_card_processor.ts';
import * as m0014 from './0014_email_leases.ts';
import * as m0015 from './0015_chain_scans.ts';
import * as m0016 from './0016_query_plan_indexes.ts';
import * as m0018 from './0018_processor_connections.ts';
import * as m0019 from './0019_subscription_language.ts';
import * as m0020 from './0020_pix_connections.ts';
import * as m0021 from './0021_card_refunds_and_disputes.ts';

/** Migrations in name order; bundled statically so no file-system scan is needed at start. */
export const migrationProvider: MigrationProvider = {
  getMigrations: async (): Promise<Record<string, Migration>> => ({
    '0001_create_foundation': m0001,
    '0002_create_payment_orders': m0002,
    '0003_create_webhooks': m0003,
    '0004_create_recurrent_payments': m0004,
    '0005_plan_versions_and_saved_cards': m0005,
    '0006_dashboard_users': m0006,
    '0007_dashboard_stats_indexes': m0007,
    '0008_merchant_logos': m0008,
    '0009_api_key_names': m0009,
    '0010_dashboard_filter_indexes': m0010,
    '0011_dashboard_days': m0011,
    '0012_idempotency_recovery_point': m0012,
    '0013_test_card_processor': m0013,
    '0014_email_leases': m0014,
    '0015_chain_scans': m0015,
    '0016_query_plan_indexes': m0016,
    '0018_processor_connections': m0018,
    '0019_subscription_language': m0019,
    '0020_pix_connections': m0020,
    '0021_card_refunds_and_disputes': m0021,
  }),
};
