import { rm } from 'node:fs/promises';
import type { Logger } from '../logging';

/** How often a running core prunes old session logs (they are pruned at start-up too). */
export const sessionPruneIntervalMs = 6 * 3_600_000;

/** A session log that retention may delete, and when its session was last active. */
export interface PrunableLog {
  readonly id: string;
  readonly file: string;
  readonly lastActiveAt: number;
}

/**
 * Deletes the logs last active before `cutoff`, like checkpoint retention: the caller passes only
 * sessions that are not connected and run nothing. Says in the log how many went, and why; a log
 * that cannot be deleted is reported and kept. Resolves the ids deleted.
 */
export async function pruneSessionLogs(
  logs: readonly PrunableLog[],
  cutoff: number,
  maxAgeMs: number,
  logger: Logger,
): Promise<string[]> {
  const expired = logs.filter((log) => log.lastActiveAt < cutoff);
  const deleted: string[] = [];
  for (const log of expired) {
    try {
      await rm(log.file, { force: true });
      deleted.push(log.id);
    } catch (error) {
      logger.warn('could not delete an expired session log', { file: log.file, error });
    }
  }
  if (deleted.length > 0) {
    const days = Math.round((maxAgeMs / 86_400_000) * 100) / 100;
    logger.info(`deleted ${deleted.length} session log(s) with no activity for ${days} days (sessions.maxDays)`, {
      sessions: deleted,
    });
  }
  return deleted;
}
