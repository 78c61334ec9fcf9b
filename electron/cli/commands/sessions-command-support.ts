import { vigilPaths } from '../../core/vigil-home';
import { SessionRegistry } from '../../sessions/session-registry';
import type { CliIo } from '../cli-command';
import { cliHome, cliLogger } from '../cli-context';

/**
 * Runs `task` on the sessions of $VIGIL_HOME as their logs say (read only: nothing is appended).
 * Problems found while loading (a torn last line) are shown as warnings on standard error.
 */
export async function withSessionLogs<T>(io: CliIo, task: (sessions: SessionRegistry) => Promise<T> | T): Promise<T> {
  const home = cliHome(io);
  const logger = cliLogger(home, io);
  const sessions = new SessionRegistry({ directory: vigilPaths(home).sessions, logger, events: { emit: () => undefined } });
  try {
    await sessions.load();
    return await task(sessions);
  } finally {
    await sessions.dispose();
    await logger.flush();
  }
}

/** A duration for people: `4 s`, `3 min`, `2 h`. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}
