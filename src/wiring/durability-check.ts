import type { Logger } from 'pino';
import type { OpenDatabase } from '../db/database.ts';

/** Warns once, loudly, when the database is set up so that an acknowledged payment could be lost. */
export async function checkDurability(database: OpenDatabase, logger: Logger): Promise<void> {
  const settings = await database.durability();
  const safe =
    database.kind === 'sqlite'
      ? settings.journal_mode === 'wal' && (settings.synchronous === '2' || settings.synchronous === '3')
      : settings.synchronous_commit === 'on' && settings.fsync === 'on';
  if (!safe) {
    logger.warn(
      { durability: settings },
      'DURABILITY LOSS: acknowledged writes may be lost on power failure with these database settings',
    );
  }
}
