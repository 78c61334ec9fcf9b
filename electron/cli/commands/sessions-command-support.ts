import type { CliIo } from '../cli-command';
import { sessionsOf } from '../cli-services';
import { cliRoute } from '../cli-context';
import { withCore } from '../relay/relay-or-local';

/**
 * Runs `task` on the sessions of $VIGIL_HOME: the resident core's live list when one runs, else
 * as their logs say (read only: nothing is appended; problems found while loading, such as a torn
 * last line, are shown as warnings on standard error).
 */
export async function withSessionLogs<T>(
  io: CliIo,
  task: (sessions: ReturnType<typeof sessionsOf>) => Promise<T> | T,
): Promise<T> {
  return withCore(cliRoute(io), async (caller) => task(sessionsOf(caller)));
}

/** A duration for people: `4 s`, `3 min`, `2 h`. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}
