import type { WatchStatus } from '../checkpoint-types';
import type { TrackedDirectory } from './tracked-directory';

/**
 * What `vigil checkpoints status` says about how a directory's changes are found: a process that
 * does not watch walks every time; a resident core walks a directory it has not checkpointed yet,
 * one whose watcher stopped, and (once) one whose watcher may have missed something.
 */
export function watchStatusOf(tracked: TrackedDirectory | undefined, isWatching: boolean): WatchStatus {
  if (!isWatching)
    return {
      mode: 'walked',
      reason: 'no resident core runs (vigil serve or the app): each checkpoint walks the whole tree',
      walkedPaths: [],
      defects: 0,
    };
  if (tracked === undefined)
    return {
      mode: 'walked',
      reason: 'not checkpointed since this core started: the next checkpoint walks it, then it is watched',
      walkedPaths: [],
      defects: 0,
    };
  const walkedPaths = [...tracked.walkedPaths]
    .map(([path, reason]) => ({ path, reason }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const common = {
    walkedPaths,
    defects: tracked.defects,
    ...(tracked.verifiedAt === undefined ? {} : { verifiedAt: tracked.verifiedAt }),
  };
  if (!tracked.isWatched)
    return { mode: 'walked', reason: tracked.walkReason ?? 'the folder could not be watched', ...common };
  if (tracked.needsFullScan)
    return {
      mode: 'watched',
      reason: `the next checkpoint walks the whole tree: ${tracked.walkReason ?? 'it has not been walked since it was first watched'}`,
      ...common,
    };
  return { mode: 'watched', ...common };
}
