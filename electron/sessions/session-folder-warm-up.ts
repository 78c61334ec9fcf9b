import type { Disposer } from '../lib';
import type { SessionService } from './session-types';

/**
 * Calls `warmUp` once per folder for each session that opens (or changes its roots) with a known
 * folder, its cwd or else its first root: a resident core starts that folder's first snapshot
 * then, so the session's first write waits only for what is left. Never waits for it. Returns the disposer.
 */
export function warmUpSessionFolders(
  sessions: Pick<SessionService, 'onChanged'>,
  warmUp: (dir: string) => Promise<void>,
): Disposer<void> {
  const started = new Set<string>();
  return sessions.onChanged((session) => {
    const dir = session.cwd ?? session.roots[0];
    if (dir === undefined || session.status === 'ended' || started.has(dir)) return;
    started.add(dir);
    void warmUp(dir);
  });
}
